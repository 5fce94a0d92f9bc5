/**
 * Who is calling: the tenant every stored document and question belongs to.
 */
@io.lorekeeper.platform.OwnsTables({"tenant", "api_key"})
package io.lorekeeper.security;
