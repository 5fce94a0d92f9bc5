package io.lorekeeper.comorag;

import java.util.List;

/** The first of HippoRAG 2's two extraction steps: the named entities of one unit. */
record NerReply(List<String> entities) {

    List<String> entityList() {
        return entities == null ? List.of() : entities;
    }
}
