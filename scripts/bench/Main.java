// Entry point of the benchmark programs (compiled and run by scripts/benchmark.sh; no dependencies,
// JDK 21+). Each subcommand talks to a running service over HTTP and prints a Markdown block.
//
//   ingest <baseUrl> <novel or folder of .txt> <serviceLog> <stateFile>   ingestion throughput per stage
//   embedding-ratio <stateFile> <file of raw-embedding lines>             ingestion vs. the raw embedding model
//   scale <baseUrl> <novelsFolder> <tiers, e.g. 100K,1M,10M> <seed> [stateFile]
//   throughput <baseUrl> <novelsFolder> <stateFile> <label> <clients> <seed> <salt> <resultsFile>
//   throughput-report <stateFile> <resultsFile>
//   extractive-ingest <baseUrl> <novel> <stateFile>                     the novel READY with its sentences memory
//   extractive <baseUrl> <novel> <stateFile> <label> <clients> <seed> <results>   extractive questions: one client, then loaded
//   extractive-report <stateFile> <results>                              the extractive rows as a Markdown table
//   modes <baseUrl> <novelsFolder> <stateFile> <documents> <seed> [modes] [label]   one client's latency per search mode (hybrid,deep)
//   strategies <baseUrl> <novel> <chars> <latencyMs> <strategies> <questions> <concurrency>
//   burst <baseUrl> <novel> <chars> <clients>                             extractive questions at once, cold then warm

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

public final class Main {

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
        }
        switch (args[0]) {
            case "ingest" -> IngestionBench.run(args[1], texts(Path.of(args[2])), Path.of(args[3]), Path.of(args[4]));
            case "embedding-ratio" -> IngestionBench.ratio(Path.of(args[1]), Path.of(args[2]));
            case "scale" -> ScaleBench.run(args[1], Path.of(args[2]), list(args[3]).stream().map(ScaleBench::parseTokens).toList(),
                    Long.parseLong(args[4]), args.length > 5 ? Path.of(args[5]) : null);
            case "throughput" -> ThroughputBench.run(args[1], Path.of(args[2]), list(state(args[3], "ids")), args[4],
                    Integer.parseInt(args[5]), Long.parseLong(args[6]), Integer.parseInt(args[7]), Path.of(args[8]));
            case "modes" -> ThroughputBench.modes(args[1], Path.of(args[2]), list(state(args[3], "ids")), Integer.parseInt(args[4]),
                    Long.parseLong(args[5]), list(args.length > 6 ? args[6] : "hybrid,deep"), args.length > 7 ? args[7] : "");
            case "throughput-report" -> ThroughputBench.report(Path.of(args[2]),
                    String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(state(args[1], "tokens"))));
            case "strategies" -> StrategyBench.run(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]),
                    list(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]));
            case "extractive-ingest" -> ExtractiveBench.ingest(args[1], Path.of(args[2]), Path.of(args[3]));
            case "extractive" -> ExtractiveBench.run(args[1], Path.of(args[2]), state(args[3], "id"), args[4], Integer.parseInt(args[5]),
                    Long.parseLong(args[6]), Path.of(args[7]));
            case "extractive-report" -> ExtractiveBench.report(Path.of(args[1]), Path.of(args[2]));
            case "burst" -> BurstBench.run(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            default -> usage();
        }
    }

    /** The file, or the .txt files of the folder in name order. */
    private static List<Path> texts(Path fileOrFolder) throws IOException {
        if (!Files.isDirectory(fileOrFolder)) {
            return List.of(fileOrFolder);
        }
        try (Stream<Path> files = Files.list(fileOrFolder)) {
            return files.filter(f -> f.toString().endsWith(".txt")).sorted().toList();
        }
    }

    /** A {@code name=value} line of a state file. */
    static String state(String file, String name) throws IOException {
        return Files.readAllLines(Path.of(file)).stream().filter(l -> l.startsWith(name + "=")).map(l -> l.substring(name.length() + 1))
                .findFirst().orElseThrow(() -> new IllegalStateException(name + " missing from " + file));
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static void usage() {
        System.err.println("usage: Main ingest|embedding-ratio|scale|strategies … (see the comment in scripts/bench/Main.java)");
        System.exit(2);
    }
}
