// Forty questions about Great Expectations: search queries for the scale benchmark (whose corpus is
// recombined from the novels' sentences) and questions for the strategy benchmark.

import java.util.List;

final class Questions {

    private Questions() {
    }

    static final List<String> GREAT_EXPECTATIONS = List.of(
            "Who is Pip's secret benefactor?",
            "What happened at Satis House?",
            "Why does Miss Havisham still wear her wedding dress?",
            "Who is Estella's real mother?",
            "Who is Estella's father?",
            "What does Pip steal for the convict on the marshes?",
            "Where does Joe Gargery work as a blacksmith?",
            "How is Mrs. Joe injured?",
            "Who attacked Mrs. Joe with the convict's leg-iron?",
            "What is Mr. Jaggers's profession?",
            "Who is Wemmick and where does he live?",
            "What is the Aged Parent like at Walworth?",
            "Who is Herbert Pocket?",
            "How did Pip and Herbert first meet as boys?",
            "Who jilted Miss Havisham on her wedding day?",
            "What is Compeyson's relationship to Magwitch?",
            "Why was Magwitch transported to New South Wales?",
            "What name does Magwitch use when he returns to London?",
            "How does Miss Havisham die?",
            "Whom does Estella marry?",
            "How does Bentley Drummle treat Estella?",
            "Who is Biddy and whom does she marry?",
            "What does Uncle Pumblechook claim about Pip's fortune?",
            "What happens when Pip tries to row Magwitch down the Thames?",
            "Who is Orlick and why does he hate Pip?",
            "What happens at the limekiln by the sluice-house on the marshes?",
            "Where does Pip lodge with Herbert at Barnard's Inn?",
            "What are Pip's great expectations?",
            "Who secretly pays for Herbert's position at Clarriker's?",
            "What happens to Magwitch's fortune after his trial?",
            "How does Joe nurse Pip through his fever?",
            "What does Wemmick tell Pip about Molly the housekeeper?",
            "Who are the Finches of the Grove?",
            "What does Mr. Wopsle do after leaving the church?",
            "Why is Pip ashamed of Joe when he visits London?",
            "Why does Wemmick warn Pip not to go home?",
            "Where do Pip and Estella meet again at the end of the novel?",
            "Who is Clara Barley and where does she live?",
            "What happened on Christmas Day when the soldiers came to the forge?",
            "Why does Pip go abroad to work in Cairo with Herbert?");
}
