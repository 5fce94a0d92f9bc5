package io.lorekeeper.document.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.apache.poi.util.RecordFormatException;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.TikaMemoryLimitException;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.epub.EpubParser;
import org.apache.tika.parser.html.JSoupParser;
import org.apache.tika.parser.microsoft.ooxml.OOXMLParser;
import org.apache.tika.parser.pdf.PDFParser;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

import io.lorekeeper.document.files.FileExtractor.Format;
import io.lorekeeper.platform.ApiProblem;

/**
 * One file's text extraction with Tika, as the extraction process ({@link ExtractionWorker}) runs it:
 * the parser for that format only (no other parsers are on the path, so an embedded file is counted,
 * never parsed), the text assembled and cleaned inside the same deadline, and every failure turned
 * into a problem naming the field {@code file}. It runs in a process of its own because neither
 * PDFBox nor jsoup can be stopped or bounded in memory from outside: the process can.
 */
final class TikaParse {

    /** What the parse is held to; {@code maxChars} also stops a zip bomb early. */
    record Bounds(long maxChars, int maxEmbeddedDocuments, Duration extractionTime) {}

    /** Fewer letters or digits than this per page, on average, means a PDF without a text layer. */
    private static final int MIN_CHARS_PER_PAGE = 16;
    /** An entry may inflate to at most this many times its compressed size once it is over {@link #BOMB_ENTRY_SIZE}. */
    private static final int MAX_INFLATE_RATIO = 100;

    private static final long BOMB_ENTRY_SIZE = 10L * 1024 * 1024;

    private final Bounds bounds;

    TikaParse(Bounds bounds) {
        this.bounds = bounds;
    }

    /** Loads every parser and runs one small parse, so that the first real file does not wait for either. */
    static void warmUp() {
        byte[] page = "<html><body><h1>Warm</h1><p>up.</p></body></html>".getBytes(StandardCharsets.UTF_8);
        try {
            new TikaParse(new Bounds(1 << 16, 1, Duration.ofSeconds(10)))
                    .extract(
                            "warm-up.html",
                            Format.HTML,
                            page,
                            System.nanoTime() + Duration.ofSeconds(10).toNanos());
            List.of(new PDFParser(), new OOXMLParser(), new EpubParser()).forEach(Parser::hashCode);
        } catch (RuntimeException e) {
            // only time is lost: the real file loads what it needs
        }
    }

    /** The file's canonical text and structure; an {@link ApiProblem} naming {@code file} when it has none. */
    ExtractedText extract(String fileName, Format format, byte[] content, long deadlineNanos) {
        ExtractedText text;
        StructuredTextHandler handler;
        try {
            handler = parse(format, content, deadlineNanos);
            text = ExtractedText.assemble(handler.parts());
        } catch (Exception | StackOverflowError e) {
            throw refusal(fileName, format, e);
        }
        long letters =
                text.text().codePoints().filter(Character::isLetterOrDigit).count();
        if (format == Format.PDF && letters < (long) MIN_CHARS_PER_PAGE * Math.max(1, handler.pages())) {
            throw FileExtractor.fileProblem(
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

    private StructuredTextHandler parse(Format format, byte[] content, long deadlineNanos) throws Exception {
        StructuredTextHandler handler =
                new StructuredTextHandler(bounds.maxChars(), deadlineNanos, format == Format.PDF);
        ParseContext context = new ParseContext();
        context.set(EmbeddedDocumentExtractor.class, new EmbeddedCounter(bounds.maxEmbeddedDocuments()));
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
        if (format == Format.PDF) {
            RepeatedParts.checkPageTree(content);
        }
        try (TikaInputStream in = TikaInputStream.get(content)) {
            parser.parse(in, handler, new Metadata(), context);
        }
        return handler;
    }

    /**
     * Inflates every entry of a zip container (DOCX, EPUB) before a parser sees it, counting: an
     * entry that expands more than {@link #MAX_INFLATE_RATIO} times past {@link #BOMB_ENTRY_SIZE}, or
     * entries that together expand past ten times the text limit, make it a zip bomb.
     */
    private void checkNotABomb(byte[] content) throws IOException {
        long maxTotal = Math.max(200L * 1024 * 1024, 10 * bounds.maxChars());
        try (ZipFile zip = ZipFile.builder()
                .setSeekableByteChannel(new SeekableInMemoryByteChannel(content))
                .get()) {
            long total = 0;
            byte[] buffer = new byte[64 * 1024];
            for (ZipArchiveEntry entry : java.util.Collections.list(zip.getEntries())) {
                long compressed = Math.max(1, entry.getCompressedSize());
                long inflated = 0;
                boolean packageDocument =
                        entry.getName().toLowerCase(Locale.ROOT).endsWith(".opf");
                java.io.ByteArrayOutputStream opf = new java.io.ByteArrayOutputStream();
                try (InputStream in = zip.getInputStream(entry)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        if (packageDocument) {
                            opf.write(buffer, 0, n);
                        }
                        inflated += n;
                        total += n;
                        if ((inflated > BOMB_ENTRY_SIZE && inflated > MAX_INFLATE_RATIO * compressed)
                                || total > maxTotal) {
                            throw new IOException("zip bomb: " + entry.getName() + " expands beyond " + inflated
                                    + " bytes from " + compressed);
                        }
                    }
                }
                if (packageDocument) {
                    RepeatedParts.checkSpine(opf.toString(StandardCharsets.UTF_8));
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
            if (t instanceof ApiProblem problem) {
                return problem;
            }
            if (t instanceof StructuredTextHandler.Stop stop) {
                return stop.reason == StructuredTextHandler.Stop.Reason.TOO_MUCH_TEXT
                        ? ApiProblem.tooLarge(
                                "file",
                                "the file holds more text than the limit of " + String.format("%,d", bounds.maxChars())
                                        + " characters")
                        : FileExtractor.timedOut(bounds.extractionTime());
            }
            if (t instanceof TooManyEmbedded many) {
                return FileExtractor.fileProblem(
                        ApiProblem.Kind.INVALID,
                        "too-many-embedded-documents",
                        "Too many embedded documents",
                        "the file embeds more than " + many.max + " documents (images, attachments, objects)");
            }
            if (t instanceof EncryptedDocumentException
                    || (t instanceof org.apache.poi.EncryptedDocumentException)
                    || t.getClass().getName().endsWith("InvalidPasswordException")) {
                return FileExtractor.encrypted("the " + format.name() + " is encrypted (password-protected)");
            }
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof TikaMemoryLimitException || message.contains("zip bomb")) {
                return FileExtractor.fileProblem(
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
        return FileExtractor.unreadable(fileName, format, reason);
    }
}
