// THE rule for where a run may write: no output overwrites an input. Every file a run reads (its .http
// files, env file, private env file, overlays, `< file` bodies, the .env of {{$dotenv}}, the certificate
// files of its network settings) is registered as an input by what reads it, and every file it writes
// (--out, its resume record, --report, a baseline, a panel export) passes `claim` first: one that IS an
// input — by identity (device and inode: a hard link or another spelling of the path is the same file),
// or by real path — or that another output of the run already claimed, is refused; so is a target that is
// a symbolic link (named with where it points), a folder, or in a folder that does not exist. An input
// registered after the outputs were claimed (a file read once the run is under way) is refused the same
// way when an output claimed it. The places apiwb keeps for itself and reads back (its signing key, its
// code cache, resume records) are given when a RunFiles is made, and no output may be one of them, exist
// they yet or not: what a command reads back is never what a server sent. The same words for the file
// system's faults later on: fileFaultWords.
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { faultText } from '../text/faultText';

export class OutputRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputRefused';
  }
}

interface Known {
  readonly role: string;
  readonly path: string;
  readonly real: string;
  readonly id?: string;
}

/** A place the product keeps for itself and reads back: one file, every file under a folder, or every file whose name ends so. */
export type KeptPlace = { readonly role: string } & ({ readonly file: string } | { readonly folder: string } | { readonly nameEnd: string });

const idOf = (stat: Stats): string => `${stat.dev}:${stat.ino}`;

/** A path's real path when it exists; else its folder's real path and its name (a file yet to be made). */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

export class RunFiles {
  private readonly known: Known[] = [];
  private readonly keptElsewhere: readonly KeptPlace[];

  /** `kept`: the places the product keeps for itself (the CLI's: keptPlaces.ts); every output is refused there. */
  constructor(kept: readonly KeptPlace[]) {
    for (const place of kept) {
      if (!('file' in place)) continue;
      const stat = statSync(place.file, { throwIfNoEntry: false });
      this.known.push({ role: place.role, path: place.file, real: realPathOf(place.file), ...(stat ? { id: idOf(stat) } : {}) });
    }
    this.keptElsewhere = kept.filter((place) => !('file' in place));
  }

  /** A file the run reads (`role` names it in a refusal: "the env file", "the .http file"). Missing files are skipped. */
  input(path: string, role: string): void {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    const known: Known = { role, path, real: realPathOf(path), id: idOf(stat) };
    // Read after the outputs were claimed: one of them may not be this file.
    const output = this.known.find((k) => k.role.startsWith('--') && (k.id === known.id || k.real === known.real));
    if (output) throw new OutputRefused(`${output.role} ${output.path} is ${role} ${path}, an input of this run: an output never overwrites an input`);
    this.known.push(known);
  }

  /**
   * `path` may be written as `role` (`--out`, `--report`): else OutputRefused in words. The claim is kept,
   * so a second output of the run naming the same file is refused too. `as`: the kept place this output
   * is one of, when the product writes it as such (an --out's own resume record).
   */
  claim(path: string, role: string, as?: KeptPlace): void {
    const link = lstatSync(path, { throwIfNoEntry: false });
    if (link?.isSymbolicLink()) {
      let target = '?';
      try {
        target = readlinkSync(path);
      } catch {
        // unreadable link: named without its target
      }
      throw new OutputRefused(`${role} ${path} is a symbolic link (to ${target}); apiwb does not write through a link: give the file itself`);
    }
    if (link?.isDirectory()) throw new OutputRefused(`${role} ${path} is a folder; name a file in it`);
    if (!link && !existsSync(dirname(resolve(path)))) throw new OutputRefused(`${role} ${path}: the folder ${dirname(path)} does not exist`);
    const real = realPathOf(path);
    const kept = this.keptElsewhere.find((place) => place !== as && keptIn(place, real));
    if (kept) throw new OutputRefused(`${role} ${path} is in ${kept.role}, which apiwb keeps for itself: an output never overwrites a file apiwb reads`);
    const id = link ? idOf(link) : undefined;
    const same = this.known.find((k) => (id !== undefined && k.id === id) || k.real === real);
    if (same) {
      throw new OutputRefused(same.role.startsWith('--')
        ? `${role} ${path} is the file ${same.role} writes too (${same.path}); give each output its own file`
        : `${role} ${path} is ${same.role} ${same.path}, an input of this run: an output never overwrites an input`);
    }
    this.known.push({ role, path, real, ...(id ? { id } : {}) });
  }
}

/** `real` (a real path) is a file of the folder or name pattern `place`. */
function keptIn(place: KeptPlace, real: string): boolean {
  if ('nameEnd' in place) return basename(real).endsWith(place.nameEnd);
  if (!('folder' in place)) return false;
  const folder = realPathOf(place.folder);
  return real === folder || real.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** A file system error in words, with the path, for writing `path` (ENOSPC, EISDIR, EACCES…); else its own message. */
export function fileFaultWords(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC': return `the disk holding ${path} is full`;
    case 'EDQUOT': return `the disk quota for ${path} is used up`;
    case 'EISDIR': return `${path} is a folder; name a file in it`;
    case 'EACCES':
    case 'EPERM': return `no permission to write ${path}`;
    case 'EROFS': return `${path} is on a read-only file system`;
    case 'ENOENT': return `the folder of ${path} does not exist`;
    case 'ELOOP': return `${path} is a symbolic link; apiwb does not write through a link`;
    case 'EFBIG': return `${path} has grown past the largest file the file system allows`;
    case 'EIO': return `the disk holding ${path} failed to write (an I/O error)`;
    default: return faultText(error);
  }
}
