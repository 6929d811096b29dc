// The PAM callback IBM JDBC 4.50 instantiates by name (IFX_PAM_CLASS=PamAnswers); compiled
// with SessionCheck.java against jdbc-4.50.*.jar. Same answers as pam15/PamAnswers.java.

import com.informix.jdbc.IfmxPAM;
import com.informix.jdbc.IfxPAMChallenge;
import com.informix.jdbc.IfxPAMResponse;

public final class PamAnswers implements IfmxPAM {
    public PamAnswers() {
    }

    @Override
    public IfxPAMResponse IfxPAM(IfxPAMChallenge challenge) {
        String prompt = challenge.getChallenge();
        String key = prompt.startsWith("Token") ? "pam.token" : "pam.password";
        IfxPAMResponse r = new IfxPAMResponse();
        r.setResponse(System.getProperty(key, ""));
        r.setTerminateConnection(false);
        return r;
    }
}
