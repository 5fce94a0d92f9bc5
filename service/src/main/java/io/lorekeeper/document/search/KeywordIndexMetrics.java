package io.lorekeeper.document.search;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** What this replica's keyword index holds in memory: documents, postings and an estimate of their heap. */
@Component
class KeywordIndexMetrics {

    static final String KEYWORD_DOCUMENTS = "lorekeeper.keyword.index.documents";
    static final String KEYWORD_POSTINGS = "lorekeeper.keyword.index.postings";
    static final String KEYWORD_BYTES = "lorekeeper.keyword.index.memory";

    KeywordIndexMetrics(MeterRegistry registry, KeywordIndex keywords) {
        Gauge.builder(KEYWORD_DOCUMENTS, keywords, KeywordIndex::heldDocuments)
                .description("documents whose keyword postings this replica holds in memory")
                .register(registry);
        Gauge.builder(KEYWORD_POSTINGS, keywords, KeywordIndex::heldPostings)
                .description("keyword postings this replica holds in memory (the budget is"
                        + " lorekeeper.search.keyword-index.max-postings)")
                .register(registry);
        Gauge.builder(KEYWORD_BYTES, keywords, KeywordIndex::estimatedBytes)
                .description("estimated heap of the keyword postings this replica holds")
                .baseUnit("bytes")
                .register(registry);
    }
}
