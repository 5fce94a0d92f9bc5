package io.lorekeeper.reasoning.memcot;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonAlias;

/**
 * What a perception agent (zoom-in or zoom-out) says about the passages it was shown: which are
 * useful, by id, and what is still missing.
 */
record Perception(String thinking, @JsonAlias("missing_information") String missingInformation,
        @JsonAlias({"useful_ids", "useful_id"}) List<String> usefulIds) {

    Perception {
        usefulIds = usefulIds == null ? List.of() : usefulIds.stream().filter(id -> id != null && !id.isBlank()).toList();
        missingInformation = missingInformation == null ? "" : missingInformation.strip();
        thinking = thinking == null ? "" : thinking.strip();
    }
}
