package io.lorekeeper.platform;

import java.lang.reflect.Type;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

import tools.jackson.databind.json.JsonMapper;

/**
 * Holds every JSON request body to {@link StorableText}: each string value and each object key, at
 * any depth (free-form {@code metadata} and {@code options} included), is checked once the body is
 * bound and before a controller sees it, and a refusal names its path ({@code sessions[0].turns[2].text},
 * {@code metadata.tags[1]}). Checking here rather than per field means a field added later is covered.
 */
@RestControllerAdvice
class StorableRequestText extends RequestBodyAdviceAdapter {

    private final JsonMapper json;

    StorableRequestText(JsonMapper json) {
        this.json = json;
    }

    @Override
    public boolean supports(
            MethodParameter parameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object afterBodyRead(
            Object body,
            HttpInputMessage inputMessage,
            MethodParameter parameter,
            Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType) {
        // The tree shares the bound strings rather than copying them, so a 20 MB text is not duplicated.
        StorableText.requireIn("", json.valueToTree(body));
        return body;
    }
}
