// The PAM callback IBM JDBC 15.x instantiates by name (IFX_PAM_CLASS=PamAnswers); compiled
// with SessionCheck.java against jdbc-15.*.jar. It answers the test server's prompts from
// system properties ("Password: " with pam.password, "Token: " with pam.token), so one class
// serves the right-answer and the wrong-answer runs.

import com.informix.jdbcx.IfxPAMChallenge;
import com.informix.jdbcx.IfxPAMResponse;
import com.informix.jdbcx.PAM;
import com.informix.jdbcx.PAMResponseImpl;

public final class PamAnswers implements PAM {
    public PamAnswers() {
    }

    @Override
    public IfxPAMResponse pamChallenge(IfxPAMChallenge challenge) {
        String prompt = challenge.getChallenge();
        String key = prompt.startsWith("Token") ? "pam.token" : "pam.password";
        PAMResponseImpl r = new PAMResponseImpl();
        r.setResponse(System.getProperty(key, ""));
        r.setTerminateConnection(false);
        return r;
    }
}
