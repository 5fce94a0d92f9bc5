package io.lorekeeper.document.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ForwardProgressTest {

    private final List<String> written = new ArrayList<>();
    private final ForwardProgress progress = new ForwardProgress((done, total) -> written.add(done + "/" + total));

    @Test
    void aReportOvertakenByALaterOneIsDropped() {
        progress.report(0, 10);
        progress.report(10, 10);
        progress.report(9, 10);

        assertThat(written).containsExactly("0/10", "10/10");
    }

    @Test
    void fewerDoneOfAGrowingTotalIsStillWritten() {
        progress.report(3, 3);
        progress.report(2, 5); // a stage that found more work: its total grew
        progress.report(5, 5);

        assertThat(written).containsExactly("3/3", "2/5", "5/5");
    }

    @Test
    void theSameReportTwiceIsWrittenBothTimes() {
        progress.report(4, 8);
        progress.report(4, 8);

        assertThat(written).containsExactly("4/8", "4/8");
    }
}
