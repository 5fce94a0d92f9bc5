package io.lorekeeper.document.files;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.tika.detect.DefaultDetector;
import org.apache.tika.detect.Detector;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.platform.ApiProblem;

/**
 * Turns an uploaded file into canonical text with its pages and sections. The format is detected
 * from the bytes (Tika's detector; the name is not consulted) and must agree with the name's
 * extension. Plain text and Markdown are read as UTF-8; PDF, DOCX, HTML and EPUB are extracted by
 * Tika in a process of their own ({@link ExtractionProcess}, {@link TikaParse}), at most
 * {@link FileLimits#extractionThreads} at once with as many waiting (429 beyond), each killed past
 * {@link FileLimits#maxExtractionTime} or when it needs more than {@link FileLimits#extractionMemory}.
 * The request's thread only waits, so no file can take the threads other requests run on. Every
 * refusal is a problem naming the field {@code file}; nothing is stored before extraction succeeds.
 */
public class FileExtractor implements DisposableBean {

    /** The formats an upload may have, with the extensions and declared part types each accepts. */
    public enum Format {
        TEXT("text/plain", Set.of("txt", "text"), Set.of("text/plain")),
        MARKDOWN("text/markdown", Set.of("md", "markdown"), Set.of("text/markdown", "text/x-markdown", "text/plain")),
        PDF("application/pdf", Set.of("pdf"), Set.of("application/pdf", "application/x-pdf")),
        DOCX(
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                Set.of("docx"),
                Set.of("application/vnd.openxmlformats-officedocument.wordprocessingml.document")),
        HTML("text/html", Set.of("html", "htm", "xhtml"), Set.of("text/html", "application/xhtml+xml")),
        EPUB("application/epub+zip", Set.of("epub"), Set.of("application/epub+zip"));

        final String mediaType;
        final Set<String> extensions;
        final Set<String> declaredTypes;

        Format(String mediaType, Set<String> extensions, Set<String> declaredTypes) {
            this.mediaType = mediaType;
            this.extensions = extensions;
            this.declaredTypes = declaredTypes;
        }

        boolean isText() {
            return this == TEXT || this == MARKDOWN;
        }

        static Format ofExtension(String extension) {
            for (Format format : values()) {
                if (format.extensions.contains(extension)) {
                    return format;
                }
            }
            return null;
        }
    }

    /** What an upload became: its text and structure, and what the bytes were detected as. */
    public record Extraction(Format format, String mediaType, ExtractedText text) {}

    static final String ACCEPTED = ".txt, .md, .pdf, .docx, .html (.htm) and .epub";

    private static final Map<String, Format> DETECTED = Map.of(
            "application/pdf", Format.PDF,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", Format.DOCX,
            "text/html", Format.HTML,
            "application/xhtml+xml", Format.HTML,
            "application/epub+zip", Format.EPUB);

    private final FileLimits limits;
    /** The most UTF-8 bytes of text a file may extract to: the limit on any document's text. */
    private final DataSize maxTextSize;

    private final Detector detector = new DefaultDetector();
    private final ThreadPoolExecutor pool;
    private final ExtractionProcess process;

    public FileExtractor(FileLimits limits, DataSize maxTextSize) {
        this.limits = limits;
        this.maxTextSize = maxTextSize;
        this.process = new ExtractionProcess(limits.extractionMemory());
        int threads = Math.max(1, limits.extractionThreads());
        AtomicInteger counter = new AtomicInteger();
        this.pool =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(threads), r -> {
                    Thread thread = new Thread(r, "file-extraction-" + counter.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * The format an upload named {@code fileName}, declared as {@code declaredType} (without
     * parameters), has: its extension must name an accepted format and the declared type be that
     * format's (or {@code application/octet-stream}), else 415.
     */
    public static Format formatOf(String fileName, String declaredType) {
        String name = fileName == null ? "" : fileName;
        String extension =
                name.contains(".") ? name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT) : "";
        Format format = Format.ofExtension(extension);
        String type = declaredType.toLowerCase(Locale.ROOT);
        if (format == null || !(format.declaredTypes.contains(type) || type.equals("application/octet-stream"))) {
            throw ApiProblem.unsupportedMediaType(
                    "file", "accepted files are " + ACCEPTED + "; got '" + name + "' (" + declaredType + ")");
        }
        return format;
    }

    /** The media type Tika detects in the bytes alone. */
    String detect(byte[] content) {
        Metadata metadata = new Metadata();
        try (TikaInputStream in = TikaInputStream.get(content)) {
            MediaType type = detector.detect(in, metadata);
            return type.getBaseType().toString();
        } catch (IOException e) {
            return "application/octet-stream";
        }
    }

    /**
     * Checks that the bytes are what the name says; for PDF, DOCX, HTML and EPUB extracts the text
     * and structure. Text formats come back without text (the caller reads them as UTF-8).
     */
    public Extraction extract(String fileName, Format format, byte[] content) {
        if (content.length > limits.maxFileSize().toBytes()) {
            throw ApiProblem.tooLarge("file", "the file is larger than the limit of " + limits.maxFileSize());
        }
        String detected = detect(content);
        if (format.isText()) {
            // undetectable bytes stay octet-stream: reading them as UTF-8 says what is wrong with them
            if (!detected.startsWith("text/") && !detected.equals("application/octet-stream")) {
                throw mismatch(fileName, format, detected);
            }
            return new Extraction(format, format.mediaType, null);
        }
        if (detected.equals("application/x-tika-ooxml-protected") && format == Format.DOCX) {
            throw encrypted("the Word document is password-protected");
        }
        Format actual = DETECTED.get(detected);
        if (actual == null && format == Format.HTML && detected.equals("text/plain")) {
            actual = Format.HTML; // an HTML fragment without <html>: the name says HTML, the text does not deny it
        }
        if (actual != format) {
            throw mismatch(fileName, format, detected);
        }
        ExtractedText text = parse(fileName, format, content);
        return new Extraction(format, detected, text);
    }

    private ExtractedText parse(String fileName, Format format, byte[] content) {
        ExtractionWire.Request request = new ExtractionWire.Request(
                fileName,
                format,
                new TikaParse.Bounds(maxTextSize.toBytes(), limits.maxEmbeddedDocuments(), limits.maxExtractionTime()),
                limits.maxExtractionTime(),
                content);
        Future<ExtractedText> future;
        try {
            future = pool.submit(() -> process.extract(request));
        } catch (RejectedExecutionException busy) {
            throw fileProblem(
                            ApiProblem.Kind.TOO_MANY_REQUESTS,
                            "extraction-busy",
                            "Too many files being extracted",
                            "other files are being extracted; upload this one again shortly")
                    .header("Retry-After", "5");
        }
        try {
            // the process is killed at its deadline; this bound only guards against a wait that never ends
            return future.get(
                    limits.maxExtractionTime().plus(ExtractionProcess.GRACE).toMillis() + 10_000,
                    TimeUnit.MILLISECONDS);
        } catch (TimeoutException | CancellationException e) {
            future.cancel(true);
            throw timedOut(limits.maxExtractionTime());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw timedOut(limits.maxExtractionTime());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    static ApiProblem encrypted(String detail) {
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "encrypted-file",
                "Encrypted file",
                detail + "; remove the password and upload it again");
    }

    static ApiProblem timedOut(Duration limit) {
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "extraction-timeout",
                "Extraction took too long",
                "extracting the file's text took longer than " + limit.toSeconds() + " s and was stopped");
    }

    static ApiProblem unreadable(String fileName, Format format, String reason) {
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "unreadable-file",
                "Unreadable file",
                "'" + fileName + "' could not be read as a " + format.name() + " file: " + reason);
    }

    private static ApiProblem mismatch(String fileName, Format format, String detected) {
        return fileProblem(
                ApiProblem.Kind.UNSUPPORTED_MEDIA_TYPE,
                "content-mismatch",
                "Content does not match the file name",
                "'" + fileName + "' is named as " + format.name() + " but its content is " + detected);
    }

    /** Extraction processes that have not ended yet. */
    public int extractionsRunning() {
        return process.running();
    }

    @Override
    public void destroy() {
        process.killAll();
        pool.shutdownNow();
    }

    /** A refusal of the uploaded file: every problem of extraction names the {@code file} field. */
    static ApiProblem fileProblem(ApiProblem.Kind kind, String type, String title, String detail) {
        return new ApiProblem(kind, type, title, detail, "file");
    }
}
