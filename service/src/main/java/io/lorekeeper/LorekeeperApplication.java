package io.lorekeeper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.lorekeeper.document.ExtractionWorker;

@SpringBootApplication
@ConfigurationPropertiesScan
public class LorekeeperApplication {

    public static void main(String[] args) throws Exception {
        // the executable jar has one main: the same command starts a file's extraction process
        if (ExtractionWorker.requested(args)) {
            ExtractionWorker.main(args);
            return;
        }
        SpringApplication.run(LorekeeperApplication.class, args);
    }
}
