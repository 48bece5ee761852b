// A walk's credentials hook (WalkCredentials): before each page, a password-grant token of the request
// that would not outlive the page's deadline (CredentialService.renewalDue, the one rule) is renewed
// once, before that page, and the page goes with it:
//   - the CLI signs in again with the password it holds for the run (signInOnDemand);
//   - the editor asks the user to sign in again and the walk waits, then goes on from the same page;
//     a sign-in declined ends the walk, resumable from that page.
// Never after a credential failure: an invalid_grant is never sent again (accounts lock, seed 000 §5.3,
// §7.4), and a 401 to a token the product believes valid is reported as such, not retried.
import { describeTimeLeft } from '../auth/timeLeft';
import { requestAt } from '../httpfile/resolve';
import type { HttpFile } from '../httpfile/model';
import type { WalkCredentials } from '../paging/walker';
import { authReferencesOf, prepareToSend, type PrepareContext } from './prepareRequest';
import type { SecretBindings } from '../secrets/bindings';

/** The editor's way to ask for a sign-in mid-walk: true once the user has signed in again. */
export type SignInAgain = (authId: string, why: string, signal?: AbortSignal) => Promise<boolean>;

export interface RenewalInput {
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly prepare: PrepareContext;
  /** Told the secret values of a renewed request before it is sent (the redactor must know them). */
  readonly onSecrets?: (values: readonly string[]) => void;
}

/** The hook for a walk of this request, or undefined when it carries no password-grant token. */
export function walkCredentials(input: RenewalInput, ports: { readonly signInAgain?: SignInAgain | undefined; readonly guard: SecretBindings }): WalkCredentials | undefined {
  const { signInAgain } = ports;
  const node = requestAt(input.file, input.requestIndex)?.request;
  const { credentials, environment } = input.prepare;
  const ids = node ? [...new Set(authReferencesOf(node).map((r) => r.authId))].filter((id) => environment.auth[id]?.kind === 'password-grant') : [];
  if (ids.length === 0) return undefined;
  return {
    async beforeRequest(waiting, signal) {
      for (const id of ids) {
        const due = await credentials.renewalDue(id);
        if (!due) continue;
        if (!credentials.signsInOnDemand) {
          const why = due.state === 'signed-in'
            ? `the ${id} token expires in ${describeTimeLeft(due.session.expiresAt, credentials.now()).replace(/ left$/, '')}, before the next page could arrive`
            : `the ${id} token has expired`;
          if (!signInAgain) return `${why}: sign in again, then continue the walk`;
          waiting(`waiting for sign-in (${id})`);
          if (!(await signInAgain(id, why, signal))) return `${why}, and no sign-in was made: sign in, then continue the walk`;
        }
        // Prepared again: the CLI's credential service signs in once here; the editor's hands out the new token.
        const prepared = await prepareToSend(input.file, input.requestIndex, input.prepare, ports.guard);
        if (!prepared.ok) return prepared.problem;
        input.onSecrets?.(prepared.secretValues);
        return prepared.request;
      }
      return undefined;
    },
    async refused() {
      for (const id of ids) {
        const state = await credentials.state(id);
        if (state.state === 'signed-in') {
          return `the ${id} token was believed valid (${describeTimeLeft(state.session.expiresAt, credentials.now())}) and the service refused it; not sent again: sign in again, then continue the walk`;
        }
      }
      return undefined;
    },
  };
}
