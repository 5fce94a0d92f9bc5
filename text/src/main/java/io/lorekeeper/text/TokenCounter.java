package io.lorekeeper.text;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * Counts tokens the way OpenAI-style models do (cl100k_base). Chunk and page budgets are
 * expressed in these tokens; the embedding model's own WordPiece count stays below its 510-token
 * window for chunks of this size (checked by a test on real novels).
 */
public final class TokenCounter {

    private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private TokenCounter() {}

    public static int count(String text) {
        return text.isEmpty() ? 0 : ENCODING.countTokensOrdinary(text);
    }

    public static int count(CharSequence text, int start, int end) {
        return count(text.subSequence(start, end).toString());
    }
}
