package io.lorekeeper.document.files;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.platform.ApiProblem;

/**
 * Runs one file's extraction in a Java process of its own ({@link ExtractionWorker}), started from the
 * same Java and the same classes as the service: with a heap of {@code memory}, at a lower CPU
 * priority where {@code nice} exists, and killed once its time is up. Whatever a hostile file does
 * to a parser (a content stream that inflates to gigabytes, a page tree or spine that repeats one
 * item a hundred thousand times, markup a parser takes minutes over) ends with that process, and
 * the call returns only after the process has exited, so the caller's slot is taken until the work
 * has really ended.
 */
public final class ExtractionProcess {

    private static final Logger log = LoggerFactory.getLogger(ExtractionProcess.class);
    /** How long past its own deadline the process gets to say it timed out before it is killed. */
    public static final Duration GRACE = Duration.ofSeconds(2);

    private static final int STDERR_TAIL = 8 * 1024;

    private final List<String> command;
    private final DataSize memory;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Process> spare = new AtomicReference<>();
    private volatile boolean stopped;

    ExtractionProcess(DataSize memory) {
        this.memory = memory;
        this.command = command(memory);
    }

    /** The file's text, or the problem that refuses it; returns once the process has ended. */
    ExtractedText extract(ExtractionWire.Request request) {
        Process process = take();
        running.add(process);
        AtomicBoolean killed = new AtomicBoolean();
        CompletableFuture<Void> watchdog = CompletableFuture.runAsync(
                () -> {
                    if (process.isAlive()) {
                        killed.set(true);
                        process.destroyForcibly();
                    }
                },
                CompletableFuture.delayedExecutor(
                        request.time().plus(GRACE).toMillis(), TimeUnit.MILLISECONDS, Runnable::run));
        StringBuilder stderr = new StringBuilder();
        Thread stderrReader = Thread.ofVirtual().start(() -> keepTail(process.getErrorStream(), stderr));
        try {
            try (DataOutputStream in = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()))) {
                ExtractionWire.writeRequest(in, request);
            } catch (IOException ended) {
                // the process is gone before reading it all; its exit says why
            }
            try (DataInputStream out = new DataInputStream(new BufferedInputStream(process.getInputStream()))) {
                return ExtractionWire.readReply(out, request.bounds().maxChars());
            } catch (IOException noReply) {
                throw failure(request, process, killed.get(), stderrReader, stderr);
            }
        } finally {
            watchdog.cancel(false);
            process.destroyForcibly();
            awaitExit(process);
            running.remove(process);
            refill();
        }
    }

    int running() {
        return running.size();
    }

    /** Kills every extraction still running, and the spare (the service is stopping). */
    void killAll() {
        stopped = true;
        running.forEach(Process::destroyForcibly);
        Process idle = spare.getAndSet(null);
        if (idle != null) {
            idle.destroyForcibly();
        }
    }

    /**
     * A started process: the spare when there is one. Starting a JVM and loading the parsers takes a
     * second or two that an upload would otherwise wait for; the spare has done both while idle (see
     * {@link ExtractionWorker}).
     */
    private Process take() {
        Process process = spare.getAndSet(null);
        return process != null && process.isAlive() ? process : started();
    }

    /** Starts a spare unless there is one; after an extraction, so that starting it slows no parse. */
    private void refill() {
        if (stopped || spare.get() != null) {
            return;
        }
        Thread.ofVirtual().name("extraction-spare").start(() -> {
            try {
                Process next = start();
                if (stopped || !spare.compareAndSet(null, next)) {
                    next.destroyForcibly();
                }
            } catch (IOException e) {
                log.warn("could not start a spare extraction process: {}", e.getMessage());
            }
        });
    }

    private Process started() {
        try {
            return start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start the extraction process: " + e.getMessage(), e);
        }
    }

    private ApiProblem failure(
            ExtractionWire.Request request,
            Process process,
            boolean killed,
            Thread stderrReader,
            StringBuilder stderr) {
        awaitExit(process);
        try {
            stderrReader.join(Duration.ofSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String tail;
        synchronized (stderr) {
            tail = stderr.toString();
        }
        if (killed) {
            return FileExtractor.timedOut(request.bounds().extractionTime());
        }
        if (tail.contains("OutOfMemoryError")) {
            return FileExtractor.fileProblem(
                    ApiProblem.Kind.INVALID,
                    "extraction-memory",
                    "Extraction needs too much memory",
                    "extracting the file's text needed more than the limit of " + memory.toMegabytes()
                            + " MB of memory and was stopped");
        }
        log.warn(
                "the extraction process for a {} file ended with exit code {} and no reply: {}",
                request.format(),
                process.exitValue(),
                tail.strip());
        return FileExtractor.unreadable(
                request.fileName(), request.format(), "the extractor stopped (exit code " + process.exitValue() + ")");
    }

    private Process start() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        // The service's own options (an agent, a heap percentage) are not the extractor's.
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        return builder.start();
    }

    private static void keepTail(InputStream stream, StringBuilder tail) {
        byte[] buffer = new byte[4096];
        try (stream) {
            for (int n; (n = stream.read(buffer)) > 0; ) {
                synchronized (tail) {
                    tail.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    if (tail.length() > 2 * STDERR_TAIL) {
                        tail.delete(0, tail.length() - STDERR_TAIL);
                    }
                }
            }
        } catch (IOException closed) {
            // the process ended
        }
    }

    private static void awaitExit(Process process) {
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                process.destroyForcibly();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The command that starts {@link ExtractionWorker} from the classes this service runs from: its
     * executable jar, its unpacked layers (the container image), or a plain class path (tests, an IDE).
     */
    static List<String> command(DataSize memory) {
        List<String> command = new ArrayList<>();
        Path nice = Path.of("/usr/bin/nice");
        if (Files.isExecutable(nice)) {
            command.addAll(List.of(nice.toString(), "-n", "10"));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xmx" + memory.toMegabytes() + "m",
                "-XX:+ExitOnOutOfMemoryError",
                // the JVM's own messages (out of memory) on standard error: standard output is the reply
                "-XX:+DisplayVMOutputToStderr",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                "-Djava.awt.headless=true"));
        String location = ExtractionWorker.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toString();
        if (location.startsWith("jar:nested:") && location.contains("/!BOOT-INF/")) {
            // an executable jar: its launcher starts the application's main, which hands over to the worker
            String jar = location.substring("jar:nested:".length(), location.indexOf("/!BOOT-INF/"));
            command.addAll(List.of("-jar", fromUri(jar), ExtractionWorker.ARGUMENT));
        } else if (location.startsWith("file:") && location.endsWith("/BOOT-INF/classes/")) {
            String root = location.substring(0, location.length() - "BOOT-INF/classes/".length());
            command.addAll(List.of(
                    "-cp",
                    fromUri(root),
                    "org.springframework.boot.loader.launch.JarLauncher",
                    ExtractionWorker.ARGUMENT));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ExtractionWorker.class.getName()));
        }
        return List.copyOf(command);
    }

    private static String fromUri(String path) {
        try {
            return new File(new URI(path.startsWith("file:") ? path : "file:" + path)).getPath();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return path;
        }
    }
}
