package io.lorekeeper.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;

/**
 * Files built to hurt a parser, each small on the wire: what an attack sweep found to freeze the
 * service, exhaust its heap or hold an extraction slot for most of a minute. Generated here, so no
 * hostile file is kept in the repository.
 */
public final class HostileFiles {

    private HostileFiles() {}

    /** An HTML page whose paragraph holds a run of {@code spaces} spaces: a quadratic cleaner's worst case. */
    public static byte[] spacesHtml(int spaces) {
        return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><p>x" + " ".repeat(spaces)
                        + "y</p></body></html>")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** No declared charset and a million {@code A}s in an attribute: detected as EBCDIC, where A is U+00A0. */
    public static byte[] ebcdicLookingHtml(int as) {
        return ("<p title=\"" + "A".repeat(as) + "\">").getBytes(StandardCharsets.US_ASCII);
    }

    /** Tables nested {@code depth} deep and never closed, 15 bytes a level. */
    public static byte[] nestedTablesHtml(int depth) {
        return ("<html><body>" + "<table><tr><td>".repeat(depth) + "deep</body></html>")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** One page whose Flate-compressed content stream inflates to {@code inflatedBytes} of text operators. */
    public static byte[] inflatingPdf(long inflatedBytes) {
        byte[] operator = "BT /F1 12 Tf 72 720 Td (Inflated text) Tj ET\n".getBytes(StandardCharsets.US_ASCII);
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] block = new byte[operator.length * 4096];
        for (int i = 0; i < 4096; i++) {
            System.arraycopy(operator, 0, block, i * operator.length, operator.length);
        }
        byte[] buffer = new byte[64 * 1024];
        for (long written = 0; written < inflatedBytes; written += block.length) {
            deflater.setInput(block);
            while (!deflater.needsInput()) {
                compressed.write(buffer, 0, deflater.deflate(buffer));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            compressed.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return pdf("[3 0 R]", 1, "/Filter /FlateDecode", compressed.toByteArray());
    }

    /** A page tree that lists one page {@code copies} times. */
    public static byte[] repeatedPagePdf(int copies) {
        String kids = "[" + "3 0 R ".repeat(copies) + "]";
        byte[] content =
                "BT /F1 12 Tf 72 720 Td (The same page again and again) Tj ET\n".getBytes(StandardCharsets.US_ASCII);
        return pdf(kids, copies, "", content);
    }

    /** A PDF of one page object (3), listed as {@code kids}, with one content stream and a standard font. */
    private static byte[] pdf(String kids, int count, String filter, byte[] content) {
        List<byte[]> objects = List.of(
                ascii("<< /Type /Catalog /Pages 2 0 R >>"),
                ascii("<< /Type /Pages /Kids " + kids + " /Count " + count + " >>"),
                ascii("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>"
                        + " /Contents 5 0 R >>"),
                ascii("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
                concat(
                        ascii("<< /Length " + content.length + " " + filter + " >>\nstream\n"),
                        content,
                        ascii("\nendstream")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ascii("%PDF-1.7\n"));
        List<Integer> offsets = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            offsets.add(out.size());
            out.writeBytes(ascii((i + 1) + " 0 obj\n"));
            out.writeBytes(objects.get(i));
            out.writeBytes(ascii("\nendobj\n"));
        }
        int xref = out.size();
        StringBuilder table = new StringBuilder("xref\n0 " + (objects.size() + 1) + "\n0000000000 65535 f \n");
        offsets.forEach(offset -> table.append(String.format("%010d 00000 n \n", offset)));
        table.append("trailer\n<< /Size ")
                .append(objects.size() + 1)
                .append(" /Root 1 0 R >>\nstartxref\n")
                .append(xref)
                .append("\n%%EOF\n");
        out.writeBytes(ascii(table.toString()));
        return out.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
