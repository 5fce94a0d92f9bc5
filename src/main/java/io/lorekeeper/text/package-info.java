/**
 * Text utilities shared by segmentation, retrieval and answering: sentence boundaries, token
 * counts and lexical normalisation. Pure functions, no Spring beans.
 */
@org.springframework.modulith.ApplicationModule(type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package io.lorekeeper.text;
