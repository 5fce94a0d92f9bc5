package io.lorekeeper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.lorekeeper.document.FileExtractionProcess;

@SpringBootApplication
@ConfigurationPropertiesScan
public class LorekeeperApplication {

    public static void main(String[] args) throws Exception {
        // the executable jar has one main: the same command starts a file's extraction process
        if (FileExtractionProcess.requested(args)) {
            FileExtractionProcess.run(args);
            return;
        }
        SpringApplication.run(LorekeeperApplication.class, args);
    }
}
