/**
 * Cross-cutting web plumbing every feature module shares: RFC 9457 problem responses.
 */
@org.springframework.modulith.ApplicationModule(type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package io.lorekeeper.platform;
