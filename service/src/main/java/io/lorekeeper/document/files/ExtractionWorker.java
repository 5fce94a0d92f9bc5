package io.lorekeeper.document.files;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import org.slf4j.LoggerFactory;

import io.lorekeeper.platform.ApiProblem;

/**
 * The extraction process: reads one {@link ExtractionWire.Request} from standard input, extracts the
 * file ({@link TikaParse}) and writes the reply to standard output, then exits. The service starts
 * one per uploaded PDF, DOCX, HTML or EPUB file ({@link ExtractionProcess}), with a heap of its own,
 * and kills it at the deadline; nothing a file does to a parser can reach the service's heap or
 * threads.
 */
public final class ExtractionWorker {

    /** The argument that makes the application's main method start this instead of the service. */
    public static final String ARGUMENT = "--lorekeeper.extraction-worker";

    private ExtractionWorker() {}

    /** Whether {@code args} ask for an extraction process rather than the service. */
    public static boolean requested(String[] args) {
        return List.of(args).contains(ARGUMENT);
    }

    public static void main(String[] args) throws IOException {
        // Standard output carries the reply alone: anything a library prints goes to standard error.
        PrintStream reply = System.out;
        System.setOut(System.err);
        quietLogging();
        // a spare waits for its file with the parsers loaded
        TikaParse.warmUp();
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
        ExtractionWire.Request request = ExtractionWire.readRequest(in);
        long deadline = System.nanoTime() + request.time().toNanos();
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(reply, 1 << 16));
        try {
            ExtractedText text = new TikaParse(request.bounds())
                    .extract(request.fileName(), request.format(), request.content(), deadline);
            ExtractionWire.writeText(out, text);
        } catch (ApiProblem problem) {
            ExtractionWire.writeProblem(out, problem);
        }
        out.flush();
        // a parser may leave threads behind; the process has done its one job
        System.exit(0);
    }

    /** PDFBox logs a line per odd glyph; only warnings reach the service's log. */
    private static void quietLogging() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }
}
