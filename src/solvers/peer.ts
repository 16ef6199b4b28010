/**
 * Optional peer packages: the npm solvers the bench compares against. The library never needs them;
 * they are imported only when such a solver is loaded, by a specifier no bundler follows.
 */

/** An npm package a comparison solver wraps, at the version the adapter was written for. */
export interface PeerPackage {
  name: string;
  version: string;
}

/** `npm install dancing-links@4.3.10` */
export function installCommand(peer: PeerPackage): string {
  return `npm install ${peer.name}@${peer.version}`;
}

/** Why a solver over `peer` cannot load here: the package is not installed, and how to install it. */
export function missingPeerMessage(peer: PeerPackage): string {
  return `needs the optional package ${peer.name}, which is not installed: ${installCommand(peer)}`;
}

/** True when `peer` resolves from this package; true too where the runtime cannot tell before importing (the import then fails). */
export function peerInstalled(peer: PeerPackage): boolean {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (typeof resolve !== "function") return true;
  try {
    resolve(peer.name);
    return true;
  } catch {
    return false;
  }
}

/** Imports `peer`, or throws an Error naming the solver and the install command. */
export async function importPeer<Module>(solverId: string, peer: PeerPackage): Promise<Module> {
  const specifier = peer.name; // a variable, so bundlers leave the import to run time
  try {
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as Module;
  } catch (error) {
    if (peerInstalled(peer)) throw error; // installed but broken: the real error says more
    throw new Error(`solver '${solverId}' ${missingPeerMessage(peer)}`, { cause: error });
  }
}
