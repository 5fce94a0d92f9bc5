package io.lorekeeper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class LorekeeperApplication {

    public static void main(String[] args) {
        SpringApplication.run(LorekeeperApplication.class, args);
    }
}
