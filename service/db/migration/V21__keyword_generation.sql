-- Which state of a document's chunks a replica's in-memory keyword index holds. Bumped with every
-- recount of the chunks' keyword statistics (chunks stored or deleted, page headers added to or
-- cleared from their context): a replica that cached the postings of an older generation reads
-- them again. Numbered 21: V20 (keyword_posting) landed and was reverted, so databases migrated
-- in between know that number.
ALTER TABLE document ADD COLUMN keyword_generation bigint NOT NULL DEFAULT 0;
