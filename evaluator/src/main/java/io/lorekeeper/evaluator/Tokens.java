package io.lorekeeper.evaluator;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * Tokens counted as the service counts them (cl100k_base, the service's {@code text.Tokens}): context sizes,
 * compaction and RULER haystack lengths are in these tokens. The library does not depend on the service, so it
 * counts with the same encoding itself.
 */
public final class Tokens {

    private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private Tokens() {}

    public static int count(String text) {
        return text.isEmpty() ? 0 : ENCODING.countTokensOrdinary(text);
    }

    public static int count(CharSequence text, int start, int end) {
        return count(text.subSequence(start, end).toString());
    }
}
