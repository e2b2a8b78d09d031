import type { Subscription } from "@svc/bus";
import { subjects, verifyCredentialInputSchema } from "@svc/contracts";
import { serveSubject } from "@svc/service";
import type { AuthDeps } from "../deps";
import { invalidCredential, verifyCredential } from "../use-cases/verify-credential";

/** Internal subject: the gateway asks who a bearer token is. */
export function serveCredentials({ bus, db, logger, clock, sessionLifetimes }: AuthDeps): Subscription[] {
  return [
    serveSubject(bus, subjects.auth.verify, logger, async (request) => {
      // A token too long or of the wrong type is still just a bad credential to the client: 401, not 400.
      const input = verifyCredentialInputSchema.safeParse(request.input);
      if (!input.success) throw invalidCredential();
      return verifyCredential({ db, logger, clock, sessionLifetimes }, input.data.token);
    }),
  ];
}
