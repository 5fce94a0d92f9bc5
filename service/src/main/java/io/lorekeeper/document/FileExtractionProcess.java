package io.lorekeeper.document;

import java.io.IOException;

import io.lorekeeper.document.files.ExtractionWorker;

/**
 * The document module's one entry point for the application's {@code main}: the extraction process each
 * uploaded file is read in is this application started with an argument, and the worker behind it is
 * internal to the module.
 */
public final class FileExtractionProcess {

    private FileExtractionProcess() {}

    /** Whether {@code args} ask for an extraction process rather than the service. */
    public static boolean requested(String[] args) {
        return ExtractionWorker.requested(args);
    }

    /** Runs one extraction: a request on standard input, the reply on standard output. */
    public static void run(String[] args) throws IOException {
        ExtractionWorker.main(args);
    }
}
