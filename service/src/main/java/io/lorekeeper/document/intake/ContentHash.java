package io.lorekeeper.document.intake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.lorekeeper.document.DocumentKind;

/**
 * The identity of a document's content within a tenant: re-posting identical content finds the
 * stored document. A conversation grown by appends hashes like the same sessions posted at once.
 */
final class ContentHash {

    private ContentHash() {}

    static String of(DocumentKind kind, String canonicalText) {
        return sha256((kind.name() + "\n" + canonicalText).getBytes(StandardCharsets.UTF_8));
    }

    /** The SHA-256 of an uploaded file's bytes, as lowercase hex. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
