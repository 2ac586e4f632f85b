// The OWL 2 DL profile check of an ontology document, with the OWL API that owlready2's HermiT.jar bundles:
//   java -cp HermiT.jar tests/Owl2DLProfile.java ontology/ekg.owl
// Prints each profile violation on a line of its own; exits 0 when the ontology is in OWL 2 DL, 1 when not.
import java.io.File;
import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.OWLOntology;
import org.semanticweb.owlapi.profiles.OWL2DLProfile;
import org.semanticweb.owlapi.profiles.OWLProfileReport;
import org.semanticweb.owlapi.profiles.OWLProfileViolation;

public class Owl2DLProfile {
    public static void main(String[] args) throws Exception {
        OWLOntology ontology = OWLManager.createOWLOntologyManager()
            .loadOntologyFromOntologyDocument(new File(args[0]));
        OWLProfileReport report = new OWL2DLProfile().checkOntology(ontology);
        for (OWLProfileViolation violation : report.getViolations()) {
            System.out.println(violation);
        }
        System.out.println(ontology.getAxiomCount() + " axioms; in OWL 2 DL: " + report.isInProfile());
        System.exit(report.isInProfile() ? 0 : 1);
    }
}
