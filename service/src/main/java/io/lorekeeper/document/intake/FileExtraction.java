package io.lorekeeper.document.intake;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lorekeeper.document.files.FileExtractor;
import io.lorekeeper.document.files.FileLimits;

/** The file extractor, bounded by the files' limits and by the limit on any document's text. */
@Configuration(proxyBeanMethods = false)
class FileExtraction {

    @Bean
    FileExtractor fileExtractor(FileLimits limits, DocumentLimits documents) {
        return new FileExtractor(limits, documents.maxTextSize());
    }
}
