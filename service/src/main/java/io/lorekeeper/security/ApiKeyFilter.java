package io.lorekeeper.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads the key from {@code Authorization: Bearer} or {@code X-API-Key} and resolves it on every
 * request (no session). A request without a key goes on anonymous, for the paths that are open; a
 * key that does not resolve is refused here with a 401, whatever the path.
 */
class ApiKeyFilter extends OncePerRequestFilter {

    static final String HEADER = "X-API-Key";
    private static final Logger log = LoggerFactory.getLogger(ApiKeyFilter.class);

    private final AuthenticationManager authentication;
    private final FilterProblems problems;
    private final SecurityContextRepository contexts = new RequestAttributeSecurityContextRepository();

    ApiKeyFilter(AuthenticationManager authentication, FilterProblems problems) {
        this.authentication = authentication;
        this.problems = problems;
    }

    /** The key the request carries, or null. */
    static String presentedKey(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).strip();
        }
        String key = request.getHeader(HEADER);
        return key == null ? null : key.strip();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = presentedKey(request);
        if (key == null) {
            chain.doFilter(request, response);
            return;
        }
        try {
            SecurityContext context = SecurityContextHolder.createEmptyContext();
            Authentication caller = authentication.authenticate(KeyAuthentication.presented(key));
            context.setAuthentication(caller);
            // Only the key's display prefix is ever logged.
            log.debug("{} {} by {}", request.getMethod(), request.getRequestURI(), caller.getName());
            SecurityContextHolder.setContext(context);
            // Kept on the request so the async dispatch of an event stream sees the same caller.
            contexts.saveContext(context, request, response);
        } catch (AuthenticationException refused) {
            log.debug(
                    "{} {} refused: key {} not valid",
                    request.getMethod(),
                    request.getRequestURI(),
                    ApiKeys.masked(key));
            SecurityContextHolder.clearContext();
            problems.commence(request, response, refused);
            return;
        }
        chain.doFilter(request, response);
    }
}
