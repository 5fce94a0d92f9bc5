package io.lorekeeper.document.intake;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.StorableText;

/**
 * Strict UTF-8 decoding: malformed input is the client's error, never silently replaced. Valid
 * UTF-8 can still hold a NUL, which the database refuses: that is refused here too.
 */
final class Utf8 {

    private Utf8() {}

    static String decode(byte[] bytes, String field) {
        try {
            return StorableText.require(
                    field,
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString());
        } catch (CharacterCodingException e) {
            throw ApiProblem.invalid(field, "the content is not valid UTF-8");
        }
    }
}
