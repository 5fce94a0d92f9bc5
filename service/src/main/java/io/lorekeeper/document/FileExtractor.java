package io.lorekeeper.document;

import java.io.IOException;
import java.io.InputStream;
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

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.apache.poi.util.RecordFormatException;
import org.apache.tika.detect.DefaultDetector;
import org.apache.tika.detect.Detector;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.TikaMemoryLimitException;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.epub.EpubParser;
import org.apache.tika.parser.html.JSoupParser;
import org.apache.tika.parser.microsoft.ooxml.OOXMLParser;
import org.apache.tika.parser.pdf.PDFParser;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

import io.lorekeeper.platform.ApiProblem;

/**
 * Turns an uploaded file into canonical text with its pages and sections. The format is detected
 * from the bytes (Tika's detector; the name is not consulted) and must agree with the name's
 * extension. Plain text and Markdown are read as UTF-8; PDF, DOCX, HTML and EPUB go through Tika's
 * parser for that format only (no other parsers are on the path, so an embedded file is counted,
 * never parsed), on a small bounded pool, cancelled past {@link FileLimits#maxExtractionTime}.
 * Every refusal is a problem naming the field {@code file}; nothing is stored before extraction
 * succeeds.
 */
@Component
class FileExtractor implements DisposableBean {

    /** The formats an upload may have, with the extensions and declared part types each accepts. */
    enum Format {
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
    record Extraction(Format format, String mediaType, ExtractedText text) {}

    static final String ACCEPTED = ".txt, .md, .pdf, .docx, .html (.htm) and .epub";

    private static final Map<String, Format> DETECTED = Map.of(
            "application/pdf", Format.PDF,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", Format.DOCX,
            "text/html", Format.HTML,
            "application/xhtml+xml", Format.HTML,
            "application/epub+zip", Format.EPUB);

    /** Fewer letters or digits than this per page, on average, means a PDF without a text layer. */
    private static final int MIN_CHARS_PER_PAGE = 16;

    private final FileLimits limits;
    private final DocumentLimits documentLimits;
    private final Detector detector = new DefaultDetector();
    private final ThreadPoolExecutor pool;

    FileExtractor(FileLimits limits, DocumentLimits documentLimits) {
        this.limits = limits;
        this.documentLimits = documentLimits;
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
    static Format formatOf(String fileName, String declaredType) {
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
    Extraction extract(String fileName, Format format, byte[] content) {
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
        long deadline = System.nanoTime() + limits.maxExtractionTime().toNanos();
        Future<StructuredTextHandler> future;
        try {
            future = pool.submit(() -> run(format, content, deadline));
        } catch (RejectedExecutionException busy) {
            throw fileProblem(
                            ApiProblem.Kind.TOO_MANY_REQUESTS,
                            "extraction-busy",
                            "Too many files being extracted",
                            "other files are being extracted; upload this one again shortly")
                    .header("Retry-After", "5");
        }
        StructuredTextHandler handler;
        try {
            handler = future.get(limits.maxExtractionTime().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | CancellationException e) {
            future.cancel(true);
            throw timedOut();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw timedOut();
        } catch (ExecutionException e) {
            throw refusal(fileName, format, e.getCause());
        }
        ExtractedText text = ExtractedText.assemble(handler.parts());
        long letters =
                text.text().codePoints().filter(Character::isLetterOrDigit).count();
        if (format == Format.PDF && letters < (long) MIN_CHARS_PER_PAGE * Math.max(1, handler.pages())) {
            throw fileProblem(
                    ApiProblem.Kind.INVALID,
                    "no-text-layer",
                    "No text layer",
                    "the PDF has no text layer: " + letters + " letters or digits found on " + handler.pages()
                            + " page(s). It looks scanned, and OCR is not included: run OCR on it first "
                            + "(for example with ocrmypdf) and upload the result");
        }
        if (text.text().isBlank()) {
            throw ApiProblem.invalid("file", "no text was found in the " + format.name() + " file");
        }
        return text;
    }

    private StructuredTextHandler run(Format format, byte[] content, long deadline) throws Exception {
        StructuredTextHandler handler =
                new StructuredTextHandler(documentLimits.maxTextSize().toBytes(), deadline, format == Format.PDF);
        ParseContext context = new ParseContext();
        EmbeddedCounter embedded = new EmbeddedCounter(limits.maxEmbeddedDocuments());
        context.set(EmbeddedDocumentExtractor.class, embedded);
        Parser parser = switch (format) {
            case PDF -> {
                PDFParserConfig config = new PDFParserConfig();
                config.setExtractInlineImages(false);
                config.setExtractAnnotationText(false);
                config.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.NO_OCR);
                context.set(PDFParserConfig.class, config);
                yield new PDFParser();
            }
            case DOCX -> new OOXMLParser();
            case HTML -> new JSoupParser();
            case EPUB -> new EpubParser();
            default -> throw new IllegalArgumentException(format.name());
        };
        context.set(Parser.class, parser);
        if (format == Format.DOCX || format == Format.EPUB) {
            checkNotABomb(content);
        }
        try (TikaInputStream in = TikaInputStream.get(content)) {
            parser.parse(in, handler, new Metadata(), context);
        }
        return handler;
    }

    /** An entry may inflate to at most this many times its compressed size once it is over {@link #BOMB_ENTRY_SIZE}. */
    private static final int MAX_INFLATE_RATIO = 100;

    private static final long BOMB_ENTRY_SIZE = 10L * 1024 * 1024;

    /**
     * Inflates every entry of a zip container (DOCX, EPUB) before a parser sees it, counting: an
     * entry that expands more than {@link #MAX_INFLATE_RATIO} times past {@link #BOMB_ENTRY_SIZE}, or
     * entries that together expand past ten times the text limit, make it a zip bomb.
     */
    private void checkNotABomb(byte[] content) throws IOException, SAXException {
        long maxTotal =
                Math.max(200L * 1024 * 1024, 10 * documentLimits.maxTextSize().toBytes());
        try (ZipFile zip = ZipFile.builder()
                .setSeekableByteChannel(new SeekableInMemoryByteChannel(content))
                .get()) {
            long total = 0;
            byte[] buffer = new byte[64 * 1024];
            for (ZipArchiveEntry entry : java.util.Collections.list(zip.getEntries())) {
                long compressed = Math.max(1, entry.getCompressedSize());
                long inflated = 0;
                try (InputStream in = zip.getInputStream(entry)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        inflated += n;
                        total += n;
                        if ((inflated > BOMB_ENTRY_SIZE && inflated > MAX_INFLATE_RATIO * compressed)
                                || total > maxTotal) {
                            throw new IOException("zip bomb: " + entry.getName() + " expands beyond " + inflated
                                    + " bytes from " + compressed);
                        }
                        if (Thread.currentThread().isInterrupted()) {
                            throw new StructuredTextHandler.Stop(StructuredTextHandler.Stop.Reason.CANCELLED);
                        }
                    }
                }
            }
        }
    }

    /** Counts embedded documents (images, attachments) without parsing them; too many stop the parse. */
    private static final class EmbeddedCounter implements EmbeddedDocumentExtractor {
        private final int max;
        private int count;

        EmbeddedCounter(int max) {
            this.max = max;
        }

        @Override
        public boolean shouldParseEmbedded(Metadata metadata) {
            return true;
        }

        @Override
        public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata, boolean outputHtml)
                throws SAXException {
            if (++count > max) {
                throw new TooManyEmbedded(max);
            }
        }
    }

    private static final class TooManyEmbedded extends SAXException {
        final int max;

        TooManyEmbedded(int max) {
            super("more than " + max + " embedded documents");
            this.max = max;
        }
    }

    private ApiProblem refusal(String fileName, Format format, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StructuredTextHandler.Stop stop) {
                return stop.reason == StructuredTextHandler.Stop.Reason.TOO_MUCH_TEXT
                        ? ApiProblem.tooLarge(
                                "file",
                                "the file holds more text than the limit of "
                                        + String.format(
                                                "%,d",
                                                documentLimits.maxTextSize().toBytes())
                                        + " characters")
                        : timedOut();
            }
            if (t instanceof TooManyEmbedded many) {
                return fileProblem(
                        ApiProblem.Kind.INVALID,
                        "too-many-embedded-documents",
                        "Too many embedded documents",
                        "the file embeds more than " + many.max + " documents (images, attachments, objects)");
            }
            if (t instanceof EncryptedDocumentException
                    || (t instanceof org.apache.poi.EncryptedDocumentException)
                    || t.getClass().getName().endsWith("InvalidPasswordException")) {
                return encrypted("the " + format.name() + " is encrypted (password-protected)");
            }
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof TikaMemoryLimitException || message.contains("zip bomb")) {
                return fileProblem(
                        ApiProblem.Kind.INVALID,
                        "zip-bomb",
                        "Suspected zip bomb",
                        "the file expands far beyond its size (a zip bomb?) and was not extracted");
            }
        }
        String reason = failure instanceof TikaException
                        || failure instanceof IOException
                        || failure instanceof SAXException
                        || failure instanceof RecordFormatException
                ? failure.getMessage()
                : failure.getClass().getSimpleName();
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "unreadable-file",
                "Unreadable file",
                "'" + fileName + "' could not be read as a " + format.name() + " file: " + reason);
    }

    private static ApiProblem encrypted(String detail) {
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "encrypted-file",
                "Encrypted file",
                detail + "; remove the password and upload it again");
    }

    private ApiProblem timedOut() {
        return fileProblem(
                ApiProblem.Kind.INVALID,
                "extraction-timeout",
                "Extraction took too long",
                "extracting the file's text took longer than "
                        + limits.maxExtractionTime().toSeconds() + " s and was stopped");
    }

    private static ApiProblem mismatch(String fileName, Format format, String detected) {
        return fileProblem(
                ApiProblem.Kind.UNSUPPORTED_MEDIA_TYPE,
                "content-mismatch",
                "Content does not match the file name",
                "'" + fileName + "' is named as " + format.name() + " but its content is " + detected);
    }

    @Override
    public void destroy() {
        pool.shutdownNow();
    }

    /** A refusal of the uploaded file: every problem of extraction names the {@code file} field. */
    private static ApiProblem fileProblem(ApiProblem.Kind kind, String type, String title, String detail) {
        return new ApiProblem(kind, type, title, detail, "file");
    }
}
