/**
 * Which TCP ports a process and its descendants listen on, read from Linux's /proc (the tests
 * that check that an attached app offers no port a web page could reach run on Linux): every
 * LISTEN socket of /proc/net/tcp{,6} whose inode one of the processes holds open.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

export interface ListeningPort {
  /** The bound address as the kernel shows it: `127.0.0.1`, `0.0.0.0`, `::1`, `::`. */
  address: string;
  port: number;
  pid: number;
}

/** `pid` and every process below it (children, their children, …), from each process's parent pid. */
export async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 1) parents.set(Number(name), Number(fields[1]));
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) {
    for (const [child, parent] of parents) if (parent === tree[index] && !tree.includes(child)) tree.push(child);
  }
  return tree;
}

function ipv4(hex: string): string {
  const bytes = hex.match(/../g)!.map((pair) => parseInt(pair, 16));
  return bytes.reverse().join('.');
}

function ipv6(hex: string): string {
  // Four little-endian 32-bit words.
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  const groups = words.join('').match(/.{4}/g)!.map((group) => parseInt(group, 16).toString(16));
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  return text;
}

async function listeningSockets(): Promise<Map<string, { address: string; port: number }>> {
  const sockets = new Map<string, { address: string; port: number }>();
  for (const [file, decode] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st … inode (field 9); st 0A is LISTEN.
      if (fields.length < 10 || fields[3] !== '0A') continue;
      const [addressHex, portHex] = fields[1].split(':');
      sockets.set(fields[9], { address: decode(addressHex), port: parseInt(portHex, 16) });
    }
  }
  return sockets;
}

/** The TCP ports `pid` and its descendants listen on (each once per address and process). */
export async function listeningPortsOfTree(pid: number): Promise<ListeningPort[]> {
  const sockets = await listeningSockets();
  const found: ListeningPort[] = [];
  for (const member of await processTree(pid)) {
    const fds = await readdir(`/proc/${member}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${member}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const socket = inode ? sockets.get(inode) : undefined;
      if (socket && !found.some((entry) => entry.pid === member && entry.port === socket.port && entry.address === socket.address)) found.push({ ...socket, pid: member });
    }
  }
  return found;
}
