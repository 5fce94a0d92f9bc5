package io.lorekeeper.platform;

import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Holds query parameters and the plain fields of a multipart upload ({@code title}, {@code metadata})
 * and the names of uploaded files to {@link StorableText}, as {@link StorableRequestText} does for JSON bodies. It runs after the
 * multipart body is parsed, so form fields are among the parameters.
 */
@Configuration(proxyBeanMethods = false)
class StorableRequestParameters implements WebMvcConfigurer, HandlerInterceptor {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() == DispatcherType.ERROR) {
            return true; // the error page reports a refusal; reading the refused parameters again would only fail again
        }
        for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
            StorableText.require(parameter.getKey(), parameter.getKey());
            for (String value : parameter.getValue()) {
                StorableText.require(parameter.getKey(), value);
            }
        }
        if (request instanceof MultipartHttpServletRequest multipart) {
            multipart
                    .getMultiFileMap()
                    .forEach((part, files) ->
                            files.forEach(file -> StorableText.require(part, file.getOriginalFilename())));
        }
        return true;
    }
}
