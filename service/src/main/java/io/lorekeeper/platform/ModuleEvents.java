package io.lorekeeper.platform;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;

/**
 * Events between modules (Spring Modulith's {@code @ApplicationModuleListener}) are handled after
 * the publishing transaction commits, on a thread of their own, in a transaction of their own: a
 * request that deletes a document does not wait for the modules that react to it, and a listener
 * that fails leaves its publication incomplete in the registry ({@code event_publication}) to be
 * handed to it again at the next start, instead of failing the request.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
class ModuleEvents {}
