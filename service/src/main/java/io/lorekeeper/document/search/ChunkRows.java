package io.lorekeeper.document.search;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/** Maps chunk rows (selected with {@link #COLUMNS}) to hits. */
final class ChunkRows {

    static final String COLUMNS =
            "c.document_id, c.ordinal, c.page_ordinal, c.start_offset, c.end_offset, c.text, c.turn_ids, c.speakers";

    private ChunkRows() {}

    static SearchHit hit(ResultSet rs, double score) throws SQLException {
        Array turns = rs.getArray("turn_ids");
        List<String> turnIds = turns == null ? List.of() : List.of((String[]) turns.getArray());
        Array speakers = rs.getArray("speakers");
        return new SearchHit(
                rs.getObject("document_id", UUID.class),
                rs.getInt("ordinal"),
                rs.getInt("page_ordinal"),
                rs.getInt("start_offset"),
                rs.getInt("end_offset"),
                rs.getString("text"),
                turnIds,
                speakers == null ? List.of() : List.of((String[]) speakers.getArray()),
                score);
    }
}
