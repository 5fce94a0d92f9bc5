// Where the machine's CPU went during a measured window, read from /proc (Linux only): the service's
// JVM, this client, PostgreSQL (every process named postgres), and the rest (whatever else runs),
// plus the service's resident memory. The service's pid comes from LK_BENCH_SERVICE_PID, which
// scripts/benchmark.sh sets when it starts the service; without it (or without /proc) every figure
// reads "?".

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

final class ProcessCpu {

    private final long service;
    private final long client;
    private final long postgres;
    private final long busy;
    private final long total;

    private ProcessCpu(long service, long client, long postgres, long busy, long total) {
        this.service = service;
        this.client = client;
        this.postgres = postgres;
        this.busy = busy;
        this.total = total;
    }

    /** The counters now; -1 where they cannot be read. */
    static ProcessCpu sample() {
        long[] machine = machine();
        return new ProcessCpu(ticks(servicePid()), ticks("self"), postgresTicks(), machine[0], machine[1]);
    }

    /**
     * CPU ticks of every live postgres process. A backend that exits within the window takes its
     * ticks with it, so this is a lower bound; the service's pooled connections live on.
     */
    private static long postgresTicks() {
        long sum = 0;
        try (var entries = Files.list(Path.of("/proc"))) {
            for (Path dir : entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String stat = Files.readString(dir.resolve("stat"));
                    if (stat.contains("(postgres)")) {
                        sum += ticks(dir.getFileName().toString());
                    }
                } catch (Exception vanished) {
                    // the process ended between listing and reading
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return sum;
    }

    /**
     * The shares of all CPU time between {@code before} and this sample: service, PostgreSQL,
     * client, the rest and idle, of the machine's cores together.
     */
    String since(ProcessCpu before) {
        if (service < 0 || before.service < 0 || total <= before.total) {
            return "?";
        }
        double all = total - before.total;
        double s = (service - before.service) / all * 100;
        double c = (client - before.client) / all * 100;
        double pg = Math.max(0, (postgres - before.postgres) / all * 100);
        double rest = (busy - before.busy) / all * 100 - s - c - pg;
        double idle = 100 - (busy - before.busy) / all * 100;
        return String.format(Locale.ROOT, "service %.0f%%, PostgreSQL %.0f%%, client %.0f%%, rest %.0f%%, idle %.0f%%", s, pg, c,
                Math.max(0, rest), idle);
    }

    /** The service's resident set and its peak, "RSS / peak MB"; "?" when unknown. */
    static String serviceMemory() {
        String pid = servicePid();
        if (pid == null) {
            return "?";
        }
        try {
            long rss = 0;
            long peak = 0;
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kilobytes(line);
                } else if (line.startsWith("VmHWM:")) {
                    peak = kilobytes(line);
                }
            }
            return String.format(Locale.ROOT, "%d / %d", rss / 1024, peak / 1024);
        } catch (Exception e) {
            return "?";
        }
    }

    private static long kilobytes(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }

    private static String servicePid() {
        String pid = System.getenv("LK_BENCH_SERVICE_PID");
        return pid == null || pid.isBlank() ? null : pid.trim();
    }

    /** utime + stime of a process in clock ticks; -1 when unreadable. */
    private static long ticks(String pid) {
        if (pid == null) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            // the command name may hold spaces: fields count from after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (Exception e) {
            return -1;
        }
    }

    /** {busy, total} clock ticks of all cores together, from the first line of /proc/stat. */
    private static long[] machine() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new long[] {total - idle, total};
        } catch (Exception e) {
            return new long[] {-1, -1};
        }
    }
}
