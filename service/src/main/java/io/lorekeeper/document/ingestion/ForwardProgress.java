package io.lorekeeper.document.ingestion;

/**
 * One stage run's progress on its way to the database. Stages report from parallel workers, so a
 * report can arrive after a later one (9 of 10 written after 10 of 10): such an overtaken report,
 * fewer done of no more in total, is dropped, and reports are written one at a time, so the stored
 * count never goes back.
 */
final class ForwardProgress {

    interface Writer {
        void write(int done, int total);
    }

    private final Writer writer;
    private int done = -1;
    private int total = -1;

    ForwardProgress(Writer writer) {
        this.writer = writer;
    }

    synchronized void report(int done, int total) {
        if (done < this.done && total <= this.total) {
            return;
        }
        this.done = done;
        this.total = total;
        writer.write(done, total);
    }
}
