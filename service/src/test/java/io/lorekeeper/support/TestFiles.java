package io.lorekeeper.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.Document;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFStyles;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTString;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType;

/** Real files of each upload format, written in the test: PDF (PDFBox), DOCX (POI), EPUB and HTML. */
public final class TestFiles {

    private TestFiles() {}

    public static final String RUNNING_HEADER = "The Skerry Point Lighthouse Report";

    /**
     * A PDF with one page per entry of {@code pages}, each line of an entry a line on the page, under
     * a running header and over a page number ("Page n") at the bottom.
     */
    public static byte[] pdf(List<List<String>> pages) {
        return pdf(pages, null);
    }

    /** As {@link #pdf(List)}, encrypted with {@code userPassword} when it is not null. */
    public static byte[] pdf(List<List<String>> pages, String userPassword) {
        try (PDDocument doc = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int p = 0; p < pages.size(); p++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    line(cs, font, 72, 800, RUNNING_HEADER);
                    float y = 740;
                    for (String text : pages.get(p)) {
                        line(cs, font, 72, y, text);
                        y -= 13;
                    }
                    line(cs, font, 280, 40, "Page " + (p + 1));
                }
            }
            if (userPassword != null) {
                StandardProtectionPolicy policy =
                        new StandardProtectionPolicy("owner-" + userPassword, userPassword, new AccessPermission());
                policy.setEncryptionKeyLength(128);
                doc.protect(policy);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF whose pages hold only drawn shapes: what a scan without a text layer looks like to a parser. */
    public static byte[] scannedPdf(int pages) {
        try (PDDocument doc = new PDDocument()) {
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    cs.addRect(50, 50, 400, 600);
                    cs.fill();
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void line(PDPageContentStream cs, PDType1Font font, float x, float y, String text)
            throws IOException {
        cs.beginText();
        cs.setFont(font, 11);
        cs.newLineAtOffset(x, y);
        cs.showText(text);
        cs.endText();
    }

    /** A DOCX of alternating headings ("# Title" at level 1, "## Title" at level 2) and paragraphs. */
    public static byte[] docx(List<String> blocks) {
        return docx(blocks, 0);
    }

    /** As {@link #docx(List)}, with {@code pictures} distinct small pictures after the text. */
    public static byte[] docx(List<String> blocks, int pictures) {
        try (XWPFDocument doc = new XWPFDocument()) {
            XWPFStyles styles = doc.createStyles();
            styles.addStyle(heading("Heading1", "heading 1"));
            styles.addStyle(heading("Heading2", "heading 2"));
            for (String block : blocks) {
                XWPFParagraph paragraph = doc.createParagraph();
                if (block.startsWith("## ")) {
                    paragraph.setStyle("Heading2");
                    paragraph.createRun().setText(block.substring(3));
                } else if (block.startsWith("# ")) {
                    paragraph.setStyle("Heading1");
                    paragraph.createRun().setText(block.substring(2));
                } else {
                    paragraph.createRun().setText(block);
                }
            }
            for (int i = 0; i < pictures; i++) {
                byte[] png = ("picture " + i).getBytes(StandardCharsets.UTF_8);
                doc.createParagraph()
                        .createRun()
                        .addPicture(
                                new java.io.ByteArrayInputStream(png),
                                Document.PICTURE_TYPE_PNG,
                                "p" + i + ".png",
                                10_000,
                                10_000);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.write(out);
            return out.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static XWPFStyle heading(String id, String name) {
        CTStyle style = CTStyle.Factory.newInstance();
        style.setStyleId(id);
        style.setType(STStyleType.PARAGRAPH);
        CTString styleName = CTString.Factory.newInstance();
        styleName.setVal(name);
        style.setName(styleName);
        return new XWPFStyle(style);
    }

    /** An EPUB 3: mimetype, container.xml, an OPF and one XHTML file per chapter, each with an h1 title. */
    public static byte[] epub(List<String> titles, List<String> bodies) {
        return epub(titles, bodies, 1);
    }

    /** An EPUB whose spine lists its chapters {@code spineCopies} times over (a hostile one repeats them). */
    public static byte[] epub(List<String> titles, List<String> bodies, int spineCopies) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            byte[] mimetype = "application/epub+zip".getBytes(StandardCharsets.US_ASCII);
            ZipEntry entry = new ZipEntry("mimetype");
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(mimetype.length);
            CRC32 crc = new CRC32();
            crc.update(mimetype);
            entry.setCrc(crc.getValue());
            zip.putNextEntry(entry);
            zip.write(mimetype);
            zip.closeEntry();
            put(zip, "META-INF/container.xml", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                      <rootfiles>
                        <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
                      </rootfiles>
                    </container>""");
            StringBuilder manifest = new StringBuilder();
            StringBuilder spine = new StringBuilder();
            for (int i = 0; i < titles.size(); i++) {
                manifest.append("<item id=\"ch")
                        .append(i + 1)
                        .append("\" href=\"ch")
                        .append(i + 1)
                        .append(".xhtml\" media-type=\"application/xhtml+xml\"/>\n");
                spine.append(("<itemref idref=\"ch" + (i + 1) + "\"/>\n").repeat(spineCopies));
                put(zip, "OEBPS/ch" + (i + 1) + ".xhtml", """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>%s</title></head>
                        <body><h1>%s</h1><p>%s</p></body></html>""".formatted(titles.get(i), titles.get(i), bodies.get(i)));
            }
            put(zip, "OEBPS/content.opf", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
                      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                        <dc:identifier id="uid">urn:uuid:lorekeeper-test</dc:identifier>
                        <dc:title>The Keeper's Book</dc:title>
                        <dc:language>en</dc:language>
                      </metadata>
                      <manifest>
                    %s  </manifest>
                      <spine>
                    %s  </spine>
                    </package>""".formatted(manifest, spine));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void put(ZipOutputStream zip, String name, String content) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(content.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }

    /** An HTML page with an h1 and h2 sections, a script and a style that are no text. */
    public static byte[] html(String title, List<String> headings, List<String> paragraphs) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < headings.size(); i++) {
            body.append(i == 0 ? "<h1>" : "<h2>")
                    .append(headings.get(i))
                    .append(i == 0 ? "</h1>" : "</h2>")
                    .append("\n<p>")
                    .append(paragraphs.get(i))
                    .append("</p>\n");
        }
        return """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>%s</title>
                <style>p { color: navy; }</style><script>var hidden = "not text";</script></head>
                <body>
                %s</body></html>""".formatted(title, body).getBytes(StandardCharsets.UTF_8);
    }
}
