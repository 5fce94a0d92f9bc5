// Entry point of the benchmark programs (compiled and run by scripts/benchmark.sh; no dependencies,
// JDK 21+). Each subcommand talks to a running service over HTTP and prints a Markdown block.
//
//   ingest <baseUrl> <novel or folder of .txt> <serviceLog> <stateFile>   ingestion throughput per stage
//   embedding-ratio <stateFile> <file of raw-embedding lines>             ingestion vs. the raw embedding model
//   scale <baseUrl> <novelsFolder> <tiers, e.g. 100K,1M,10M> <seed>
//   strategies <baseUrl> <novel> <chars> <latencyMs> <strategies> <questions> <concurrency>

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
                    Long.parseLong(args[4]));
            case "strategies" -> StrategyBench.run(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]),
                    list(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]));
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

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static void usage() {
        System.err.println("usage: Main ingest|embedding-ratio|scale|strategies … (see the comment in scripts/bench/Main.java)");
        System.exit(2);
    }
}
