/**
 * Who is calling: the tenant every stored document and question belongs to.
 */
package io.lorekeeper.security;
