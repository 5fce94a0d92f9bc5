package io.lorekeeper.document.files;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;

import io.lorekeeper.platform.ApiProblem;

/**
 * Refuses a file that lists one part many times over: an EPUB spine naming the same chapter a hundred
 * thousand times (6 KB that extract to megabytes), a PDF page tree listing one page (or one subtree,
 * which multiplies) again and again. A parser reads each listing in full, so such a file costs
 * minutes and gigabytes while looking small; a real book lists each part once.
 */
final class RepeatedParts {

    /** Listings of something already listed that a file may have before it is refused. */
    static final int MAX_REPEATS = 100;
    /** The most page-tree nodes walked: far beyond any book, and a bound on the walk itself. */
    static final int MAX_PAGE_TREE_NODES = 500_000;

    private static final Pattern ITEMREF =
            Pattern.compile("<(?:\\w+:)?itemref\\b[^<>]*?\\bidref\\s*=\\s*[\"']([^\"']{1,256})[\"']");

    private RepeatedParts() {}

    /** An EPUB package document whose spine lists a chapter again more than {@link #MAX_REPEATS} times is refused. */
    static void checkSpine(String packageDocument) {
        Map<String, Integer> listed = new HashMap<>();
        int repeats = 0;
        Matcher itemref = ITEMREF.matcher(packageDocument);
        while (itemref.find()) {
            if (listed.merge(itemref.group(1), 1, Integer::sum) > 1 && ++repeats > MAX_REPEATS) {
                throw refused("the EPUB's spine lists the same chapters over and over (more than " + MAX_REPEATS
                        + " repeats), which no book does");
            }
        }
    }

    /**
     * Walks a PDF's page tree without PDFBox's page iterator (which would follow every repeat) and
     * refuses a tree that reaches a node it has reached before more than {@link #MAX_REPEATS} times,
     * or has more than {@link #MAX_PAGE_TREE_NODES} nodes.
     */
    static void checkPageTree(byte[] pdf) throws IOException {
        try (PDDocument document = Loader.loadPDF(pdf)) {
            COSDictionary root = document.getDocumentCatalog().getCOSObject().getCOSDictionary(COSName.PAGES);
            if (root == null) {
                return;
            }
            Set<COSDictionary> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            Deque<COSDictionary> pending = new ArrayDeque<>();
            pending.push(root);
            int repeats = 0;
            int walked = 0;
            while (!pending.isEmpty()) {
                COSDictionary node = pending.pop();
                if (!seen.add(node)) {
                    if (++repeats > MAX_REPEATS) {
                        throw refused("the PDF's page tree lists the same pages over and over (more than " + MAX_REPEATS
                                + " repeats), which no document does");
                    }
                    continue;
                }
                if (++walked > MAX_PAGE_TREE_NODES) {
                    throw refused("the PDF's page tree has more than " + MAX_PAGE_TREE_NODES + " nodes");
                }
                COSArray kids = node.getCOSArray(COSName.KIDS);
                if (kids == null) {
                    continue;
                }
                for (int i = 0; i < kids.size(); i++) {
                    COSBase kid = kids.getObject(i);
                    if (kid instanceof COSDictionary child) {
                        pending.push(child);
                    }
                }
            }
        }
    }

    private static ApiProblem refused(String detail) {
        return FileExtractor.fileProblem(ApiProblem.Kind.INVALID, "repeated-parts", "Repeated parts", detail);
    }
}
