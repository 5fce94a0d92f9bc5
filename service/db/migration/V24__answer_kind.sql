-- What kind of answer a DONE question got (issue #44): a short span quoted from the source, the best
-- passages when no short answer was certain enough, or a model's text. Answers stored before this column
-- are spans or generated text, as their mode says.
ALTER TABLE question ADD COLUMN answer_kind text
    CHECK (answer_kind IN ('SPAN', 'PASSAGE', 'GENERATED'));
UPDATE question SET answer_kind = CASE mode WHEN 'generated' THEN 'GENERATED' ELSE 'SPAN' END
    WHERE status = 'DONE' AND mode IS NOT NULL;
