// The sandbox's labelled choices (the list and their meaning live in the catalog, src/core/catalog/
// rules.ts): which are on for this run, and the per-request switch. A request may send
// `X-Sandbox-Choice: required-fields=on, error-bodies=off` (a bare name means on) to switch the
// switchable ones for itself; every answer that applied a choice names it in the same header.
import { SANDBOX_CHOICES, SANDBOX_CHOICE_IDS, type SandboxChoiceId } from '../../core/catalog/rules';

export type ChoiceSettings = Readonly<Record<SandboxChoiceId, boolean>>;

export const CHOICE_HEADER = 'x-sandbox-choice';

export function isChoiceId(name: string): name is SandboxChoiceId {
  return (SANDBOX_CHOICE_IDS as readonly string[]).includes(name);
}

/** The run's settings: each choice's default, overridden by the options given. */
export function resolveChoices(given: Partial<Record<SandboxChoiceId, boolean>> = {}): ChoiceSettings {
  const settings = Object.fromEntries(SANDBOX_CHOICE_IDS.map((id) => [id, given[id] ?? SANDBOX_CHOICES[id].defaultOn]));
  for (const id of Object.keys(given)) {
    if (!isChoiceId(id)) throw new Error(`unknown sandbox choice '${id}': use one of ${SANDBOX_CHOICE_IDS.join(', ')}`);
    if (!SANDBOX_CHOICES[id].switchable && given[id] !== SANDBOX_CHOICES[id].defaultOn) throw new Error(`sandbox choice '${id}' cannot be switched: ${SANDBOX_CHOICES[id].open}, and the sandbox has to answer something`);
  }
  return settings as ChoiceSettings;
}

/** `name`, `name=on` or `name=off`, comma-separated; throws saying what is accepted. */
export function parseChoiceList(text: string): Partial<Record<SandboxChoiceId, boolean>> {
  const out: Partial<Record<SandboxChoiceId, boolean>> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^([a-z0-9-]+)(?:=(on|off))?$/.exec(part);
    const name = match?.[1] ?? '';
    if (!match || !isChoiceId(name)) {
      throw new Error(`sandbox choice '${part}': use NAME, NAME=on or NAME=off with NAME one of ${SANDBOX_CHOICE_IDS.join(', ')}`);
    }
    out[name] = match[2] !== 'off';
  }
  return out;
}

/** The run's settings with a request's overrides applied (only switchable choices may change). */
export function withOverrides(settings: ChoiceSettings, overrides: Partial<Record<SandboxChoiceId, boolean>>): ChoiceSettings {
  for (const [id, on] of Object.entries(overrides) as [SandboxChoiceId, boolean][]) {
    if (!SANDBOX_CHOICES[id].switchable && on !== settings[id]) throw new Error(`sandbox choice '${id}' cannot be switched (${SANDBOX_CHOICES[id].open})`);
  }
  return { ...settings, ...overrides };
}
