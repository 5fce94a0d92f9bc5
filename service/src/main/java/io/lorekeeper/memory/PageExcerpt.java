package io.lorekeeper.memory;

import io.lorekeeper.text.TokenCounter;

/**
 * A page's text as sent to the model. Pages are 2,048 tokens, but a conversation page is a whole
 * session, which can be far longer than a prompt should be; such a page is cut at a line or word
 * boundary and the prompt says so, rather than failing the document.
 */
record PageExcerpt(String text, boolean cut) {

    static PageExcerpt of(String pageText, int maxTokens) {
        int tokens = TokenCounter.count(pageText);
        if (tokens <= maxTokens) {
            return new PageExcerpt(pageText, false);
        }
        int end = (int) ((long) pageText.length() * maxTokens / tokens);
        while (end > 0 && TokenCounter.count(pageText.substring(0, end)) > maxTokens) {
            end = (int) (end * 0.9);
        }
        int lineBreak = pageText.lastIndexOf('\n', end);
        int space = pageText.lastIndexOf(' ', end);
        int boundary = lineBreak > end / 2 ? lineBreak : space > end / 2 ? space : end;
        return new PageExcerpt(pageText.substring(0, boundary), true);
    }

    /** Said after the page's label in the prompt. */
    String note() {
        return cut ? " (only its beginning: the page is too long to show in full)" : "";
    }
}
