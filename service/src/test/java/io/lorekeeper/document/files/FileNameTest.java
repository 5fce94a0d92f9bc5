package io.lorekeeper.document.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FileNameTest {

    @Test
    void onlyTheLastPathSegmentIsKept() {
        assertThat(FileName.display("../../../../etc/passwd.txt")).isEqualTo("passwd.txt");
        assertThat(FileName.display("C:\\Users\\me\\report.pdf")).isEqualTo("report.pdf");
        assertThat(FileName.display("notes/")).isEmpty();
        assertThat(FileName.display("..")).isEmpty();
        assertThat(FileName.display(null)).isEmpty();
    }

    @Test
    void controlAndFormatCharactersGoSoNoNameCanSpoofItsExtension() {
        // U+202E RIGHT-TO-LEFT OVERRIDE shows "invoice\u202Etxt.exe" as "invoiceexe.txt"
        assertThat(FileName.display("invoice\u202Etxt.exe")).isEqualTo("invoicetxt.exe");
        assertThat(FileName.display("a\u0000b\u0007c\u200Bd.md")).isEqualTo("abcd.md");
        assertThat(FileName.display("lone\uD800surrogate.txt")).isEqualTo("lonesurrogate.txt");
        assertThat(FileName.display("  two \t\n words .txt  ")).isEqualTo("two words .txt");
    }

    @Test
    void aLongNameIsCutWithItsExtensionKept() {
        String name = FileName.display("a".repeat(600) + ".html");

        assertThat(name).hasSize(FileName.MAX_LENGTH).endsWith("a.html");
        assertThat(FileName.display("\uD83D\uDCD6".repeat(200) + ".epub"))
                .hasSizeLessThanOrEqualTo(FileName.MAX_LENGTH)
                .endsWith("\uD83D\uDCD6.epub");
        assertThat(FileName.display("Les Misérables — tome 1.epub")).isEqualTo("Les Misérables — tome 1.epub");
    }
}
