/**
 * The scenario the lab opens with: the textbook's two-node cluster. Learners read and edit this
 * text, so its comments explain each part. Facts the textbook relies on (and tests check):
 * CoreDNS at 10.244.0.2 and 10.244.0.3 behind kube-dns 10.96.0.10, a client pod at 10.244.0.5.
 */

export const DEFAULT_SCENARIO_NAME = 'two-node-cluster';

export const DEFAULT_SCENARIO = `# A small cluster: two nodes, cluster DNS, a web app and a client pod.
# Each document below is ordinary Kubernetes YAML, except the first (the lab's own settings).
# Edit anything and re-apply: objects that still exist keep their addresses.

# The lab's settings: what no Kubernetes object holds.
apiVersion: kube-proxy-lab/v1alpha1
kind: Lab
seed: 1                       # seeds every random choice (e.g. which backend a packet gets)
serviceCIDR: 10.96.0.0/12     # kube-apiserver --service-cluster-ip-range
clusterAge: 10d               # how long ago the cluster was created (kubectl's AGE column)
externalClients:              # machines outside the cluster, on the nodes' network
- name: laptop
  address: 192.168.1.100
---
# kube-proxy's configuration (the same on every node).
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables                # or ipvs, nftables
clusterCIDR: 10.244.0.0/16    # the pod network: traffic from outside it gets masqueraded
---
# The kubelet's configuration: how a pod can reach itself through a Service.
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
hairpinMode: hairpin-veth
---
# Two nodes. Each hands pod addresses out of its own podCIDR (cni0 takes the .1).
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels:
    kubernetes.io/hostname: node-1
spec:
  podCIDR: 10.244.0.0/24
status:
  addresses:
  - type: InternalIP          # eth0: the address other nodes and the laptop reach
    address: 192.168.1.10
  - type: Hostname
    address: node-1
---
apiVersion: v1
kind: Node
metadata:
  name: node-2
  labels:
    kubernetes.io/hostname: node-2
spec:
  podCIDR: 10.244.1.0/24
status:
  addresses:
  - type: InternalIP
    address: 192.168.1.11
  - type: Hostname
    address: node-2
---
# The API server's own Service. It has no selector: its endpoints are written by the
# API server itself (the EndpointSlice below), pointing at node-1:6443.
apiVersion: v1
kind: Service
metadata:
  name: kubernetes
  namespace: default
  labels:
    component: apiserver
    provider: kubernetes
spec:
  type: ClusterIP
  clusterIP: 10.96.0.1        # always the first address of the Service CIDR
  ports:
  - name: https
    port: 443
    protocol: TCP
    targetPort: 6443
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kubernetes
  namespace: default
  labels:
    kubernetes.io/service-name: kubernetes
addressType: IPv4
endpoints:
- addresses: [192.168.1.10]
  conditions:
    ready: true
ports:
- name: https
  port: 6443
  protocol: TCP
---
# Cluster DNS. Every pod's /etc/resolv.conf points at 10.96.0.10.
# DNS uses UDP and TCP on port 53: one Service port per protocol.
apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
  labels:
    k8s-app: kube-dns
    kubernetes.io/name: CoreDNS
spec:
  clusterIP: 10.96.0.10
  selector:
    k8s-app: kube-dns
  ports:
  - name: dns
    port: 53
    protocol: UDP
    targetPort: 53
  - name: dns-tcp
    port: 53
    protocol: TCP
    targetPort: 53
  - name: metrics
    port: 9153
    protocol: TCP
    targetPort: 9153
---
# CoreDNS, the pods behind kube-dns. Pinned to node-1 (nodeName) so they get
# 10.244.0.2 and 10.244.0.3, the addresses the textbook's rule listings show.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
  labels:
    k8s-app: kube-dns
spec:
  replicas: 2
  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      nodeName: node-1
      containers:
      - name: coredns
        image: registry.k8s.io/coredns/coredns:v1.11.3
        args: ["-conf", "/etc/coredns/Corefile"]
        ports:
        - name: dns
          containerPort: 53
          protocol: UDP
        - name: dns-tcp
          containerPort: 53
          protocol: TCP
        - name: metrics
          containerPort: 9153
          protocol: TCP
---
# A web app: three replicas, spread over the nodes by the scheduler.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
        args: ["netexec", "--http-port=8080"]
        ports:
        - name: http              # Services below refer to this port by name
          containerPort: 8080
---
# The web app inside the cluster: a virtual IP on port 80 → the pods' port 8080.
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
  type: ClusterIP             # no clusterIP given: the API server allocates one
  selector:
    app: web
  ports:
  - port: 80
    targetPort: http
---
# The same pods from outside: port 30080 on every node's address.
apiVersion: v1
kind: Service
metadata:
  name: web-nodeport
  namespace: default
spec:
  type: NodePort
  selector:
    app: web
  ports:
  - port: 80
    targetPort: http
    nodePort: 30080
---
# A pod to experiment from (curl, nslookup). It lands on node-1 at 10.244.0.5.
apiVersion: v1
kind: Pod
metadata:
  name: client
  namespace: default
spec:
  nodeName: node-1
  containers:
  - name: client
    image: registry.k8s.io/e2e-test-images/agnhost:2.53
    args: ["pause"]
`;
