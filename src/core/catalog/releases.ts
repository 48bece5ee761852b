// Release facts of the contracts: the engagement contract's release (seed 000 §9) and the fundraising
// service's dated release history (seed 001 §9). The history names a first public release and a later
// one; the dates themselves are not published, so none is invented here.
import type { Operation, Release, ServiceId, ServiceRelease } from './model';
import { seed000, seed001 } from './schemas/documented';

export const ENGAGEMENT_RELEASE = {
  contract: '1.34.0.0',
  referenceVersion: '0.1.0',
  nonProduction: '1.35',
} as const;

export const engagementRelease: ServiceRelease = {
  short: `release ${ENGAGEMENT_RELEASE.contract}`,
  summary: `release ${ENGAGEMENT_RELEASE.contract} (non-production runs ${ENGAGEMENT_RELEASE.nonProduction}; compatibility unverified)`,
  facts: [
    `The contract describes public API release ${ENGAGEMENT_RELEASE.contract}; its reference document is version ${ENGAGEMENT_RELEASE.referenceVersion}.`,
    `The current non-production environment runs a later release (${ENGAGEMENT_RELEASE.nonProduction}); whether it is compatible is unverified.`,
    'Paths carry no version segment.',
  ],
  source: seed000('9'),
};

export const FUNDRAISING_FIRST_RELEASE: Release = { id: 'first-public', label: 'first public release', source: seed001('9.3') };
export const FUNDRAISING_LATER_RELEASE: Release = { id: 'later', label: 'later release', source: seed001('9.3') };
export const fundraisingRelease: ServiceRelease = {
  short: 'dated releases',
  summary: 'released continuously; changes are identified by production release date (same-day releases combined)',
  facts: [
    'The service ships continuously: a change is identified by its production release date, not a version number.',
    'Releases made on the same day are combined into one.',
    `The history names a ${FUNDRAISING_FIRST_RELEASE.label} and a ${FUNDRAISING_LATER_RELEASE.label}; their dates are not shown.`,
    'The path prefix is /v1.',
  ],
  source: seed001('9'),
};

/** The release facts of a service, when its contract states any (the booking contract states none). */
export function serviceRelease(service: ServiceId): ServiceRelease | undefined {
  return service === 'engagement' ? engagementRelease : service === 'fundraising' ? fundraisingRelease : undefined;
}

/** "added in the later release (seed 001 §9.3)" and the like, for hovers, tooltips and the tree. */
export function releaseWords(mark: { readonly introduced?: Release; readonly changed?: Release; readonly removed?: Release } | undefined): string[] {
  if (!mark) return [];
  const cite = (r: Release): string => `${r.label}${r.date ? ` (${r.date})` : ''}`;
  return [
    mark.introduced ? `introduced in the ${cite(mark.introduced)}` : undefined,
    mark.changed ? `changed in the ${cite(mark.changed)}` : undefined,
    mark.removed ? `removed in the ${cite(mark.removed)}` : undefined,
  ].filter((w): w is string => w !== undefined);
}

/** The release facts that matter for an operation: its service's (seed 000 §9) and its own (seed 001 §9.3). */
export function releaseLines(op: Operation): string[] {
  const lines: string[] = [];
  const own = releaseWords(op.release);
  if (own.length) lines.push(`Release: ${own.join('; ')} (seed 001 §9.3; dates not shown).`);
  for (const removed of op.release?.removedResponseFields ?? []) lines.push(`No longer returned: \`${removed.name}\` (use ${removed.readFrom}).`);
  const service = op.origin === 'contract' ? serviceRelease(op.service) : undefined;
  if (service && op.service === 'engagement') lines.push(`Contract ${service.summary} (seed ${service.source.seed} §${service.source.section}).`);
  return lines;
}
