import net from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of a real server, which a test can take down and bring back. */
export interface TcpProxy {
	port: number;
	/** Connections accepted so far (refused ones while down are not counted). */
	readonly accepted: number;
	/** Down: open connections are dropped and new ones are closed at once. */
	setDown(down: boolean): void;
	close(): Promise<void>;
}

/** Starts a {@link TcpProxy} to `target` on a free port. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
	let down = false;
	let accepted = 0;
	const open = new Set<net.Socket>();
	const server = net.createServer((client) => {
		if (down) return void client.destroy();
		accepted++;
		const upstream = net.connect(target.port, target.host);
		for (const socket of [client, upstream]) {
			open.add(socket);
			socket.on('close', () => open.delete(socket));
			socket.on('error', () => {
				client.destroy();
				upstream.destroy();
			});
		}
		client.pipe(upstream).pipe(client);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		get accepted() {
			return accepted;
		},
		setDown(next) {
			down = next;
			if (down) for (const socket of open) socket.destroy();
		},
		close() {
			for (const socket of open) socket.destroy();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
