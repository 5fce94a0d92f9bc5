package io.lorekeeper.document.files;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.document.files.ExtractedText.Section;
import io.lorekeeper.document.files.FileExtractor.Format;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Span;

/**
 * What the service and its extraction process say to each other over the process's standard input
 * and output: a {@link Request} in, then one reply out, either the extracted text or the problem
 * that refuses the file. Binary and length-prefixed, so no text of the file can be mistaken for
 * framing; every length read is checked against what the request allowed.
 */
final class ExtractionWire {

    /** One file to extract and the bounds it is held to; {@code time} is what is left of the deadline. */
    record Request(String fileName, Format format, TikaParse.Bounds bounds, Duration time, byte[] content) {}

    private static final byte TEXT = 'T';
    private static final byte PROBLEM = 'P';

    private ExtractionWire() {}

    static void writeRequest(DataOutputStream out, Request request) throws IOException {
        writeString(out, request.fileName());
        writeString(out, request.format().name());
        out.writeLong(request.bounds().maxChars());
        out.writeInt(request.bounds().maxEmbeddedDocuments());
        out.writeLong(request.bounds().extractionTime().toMillis());
        out.writeLong(request.time().toMillis());
        out.writeInt(request.content().length);
        out.write(request.content());
        out.flush();
    }

    static Request readRequest(DataInputStream in) throws IOException {
        String fileName = readString(in, Integer.MAX_VALUE);
        Format format = Format.valueOf(readString(in, 16));
        TikaParse.Bounds bounds = new TikaParse.Bounds(in.readLong(), in.readInt(), Duration.ofMillis(in.readLong()));
        Duration time = Duration.ofMillis(in.readLong());
        byte[] content = new byte[in.readInt()];
        in.readFully(content);
        return new Request(fileName, format, bounds, time, content);
    }

    static void writeText(DataOutputStream out, ExtractedText text) throws IOException {
        out.writeByte(TEXT);
        writeString(out, text.text());
        out.writeInt(text.sections().size());
        for (Section section : text.sections()) {
            writeString(out, section.kind());
            out.writeInt(section.page() == null ? -1 : section.page());
            writeString(out, section.title());
            out.writeInt(section.level() == null ? -1 : section.level());
            out.writeInt(section.span().start());
            out.writeInt(section.span().end());
        }
        out.flush();
    }

    static void writeProblem(DataOutputStream out, ApiProblem problem) throws IOException {
        out.writeByte(PROBLEM);
        writeString(out, problem.kind().name());
        writeString(out, problem.type());
        writeString(out, problem.title());
        writeString(out, problem.getMessage());
        writeString(out, problem.field());
        out.flush();
    }

    /**
     * The reply: the text, or the refusal rethrown. An {@link EOFException} when the process ended
     * without one (killed, or out of memory); {@code maxChars} bounds every length read.
     */
    static ExtractedText readReply(DataInputStream in, long maxChars) throws IOException {
        int tag = in.read();
        if (tag < 0) {
            throw new EOFException("the extraction process ended without a reply");
        }
        int maxLength = (int) Math.min(Integer.MAX_VALUE - 8, 3 * maxChars + 1024);
        if (tag == PROBLEM) {
            ApiProblem.Kind kind = ApiProblem.Kind.valueOf(readString(in, 64));
            throw new ApiProblem(
                    kind, readString(in, 256), readString(in, 1024), readString(in, 64 * 1024), readString(in, 256));
        }
        if (tag != TEXT) {
            throw new IOException("unexpected reply from the extraction process: " + tag);
        }
        String text = readString(in, maxLength);
        int count = in.readInt();
        if (count < 0 || count > text.length() + 1) {
            throw new IOException("unexpected section count from the extraction process: " + count);
        }
        List<Section> sections = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String kind = readString(in, 16);
            int page = in.readInt();
            String title = readString(in, 64 * 1024);
            int level = in.readInt();
            int start = in.readInt();
            int end = in.readInt();
            if (start < 0 || end < start || end > text.length()) {
                throw new IOException("a section outside the text from the extraction process");
            }
            sections.add(new Section(
                    i, kind, page < 0 ? null : page, title, level < 0 ? null : level, new Span(start, end)));
        }
        return new ExtractedText(text, sections);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in, int maxBytes) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        if (length > maxBytes) {
            throw new IOException("a string of " + length + " bytes from the extraction process");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
