-- Which state of a document's chunks a replica's in-memory keyword index holds (KeywordIndex). Bumped
-- with every recount of the chunks' keyword statistics (chunks stored or deleted, page headers added
-- to or cleared from their context): a replica that holds the postings of an older generation reads
-- them again.
--
-- V20's impact-ordered postings were reverted (2320309) after databases had applied them; V20 stays,
-- byte for byte, so that those databases still validate, and its table and function go here.
ALTER TABLE document ADD COLUMN keyword_generation bigint NOT NULL DEFAULT 0;
DROP TABLE IF EXISTS keyword_posting;
DROP FUNCTION IF EXISTS lk_impact(integer, integer);
