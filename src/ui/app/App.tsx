/**
 * Placeholder shell. The engine, its CLI and the trace protocol come first; the graph,
 * editor and packet animation build on them (see README).
 */
export function App() {
  return (
    <main className="placeholder">
      <h1>kube-proxy-lab</h1>
      <p lang="zh-CN">
        Kubernetes Service 网络可视化实验室：引擎与命令行已可用，网页界面正在建设中。
      </p>
      <p lang="en">
        A visual lab for Kubernetes Service networking. The engine and its command line work today;
        the web lab is under construction.
      </p>
      <pre aria-label="CLI example">
        npx kube-proxy-lab run --echo &lt;&lt;&lt; &apos;node-1$ iptables -t nat -L KUBE-SERVICES
        -n&apos;
      </pre>
    </main>
  );
}
