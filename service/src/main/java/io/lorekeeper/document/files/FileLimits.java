package io.lorekeeper.document.files;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Limits on file uploads, under {@code lorekeeper.documents.files}; the extracted text is also held
 * to {@code lorekeeper.documents.max-text-size} (in characters while extracting, so a zip bomb stops
 * early).
 *
 * @param maxFileSize          the largest file (413 above it); the multipart limit
 *                             ({@code spring.servlet.multipart.max-file-size}) must be at least this
 * @param maxExtractionTime    how long one file's text extraction may take (400 and cancelled after)
 * @param maxEmbeddedDocuments the most embedded documents (images, attachments, OLE objects) a file
 *                             may hold; they are counted, not extracted
 * @param extractionThreads    files extracted at once; more wait in a queue of the same size, and a
 *                             request beyond that is answered 429
 * @param extractionMemory     the heap of the process each file is extracted in (400 when a file needs
 *                             more); the service's own heap never holds a parse
 * @param maxConcurrentUploads multipart requests read at once by one replica (429 beyond): their parts
 *                             are held in memory, so this times the request size bounds that memory
 */
@ConfigurationProperties("lorekeeper.documents.files")
public record FileLimits(
        @DefaultValue("20MB") DataSize maxFileSize,
        @DefaultValue("60s") Duration maxExtractionTime,
        @DefaultValue("200") int maxEmbeddedDocuments,
        @DefaultValue("2") int extractionThreads,
        @DefaultValue("512MB") DataSize extractionMemory,
        @DefaultValue("8") int maxConcurrentUploads) {}
