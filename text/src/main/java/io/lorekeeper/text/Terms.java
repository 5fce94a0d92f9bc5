package io.lorekeeper.text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Lexical normalisation for matching words across question and text: lower case, English stop
 * words removed, possessives stripped, Porter-stemmed ("Pip's benefactors" and "benefactor of
 * Pip" share the terms {@code pip} and {@code benefactor}).
 */
public final class Terms {

    private static final Analyzer ANALYZER = new EnglishAnalyzer();

    private Terms() {}

    public static List<String> of(String text) {
        List<String> terms = new ArrayList<>();
        try (TokenStream stream = ANALYZER.tokenStream("t", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return terms;
    }
}
