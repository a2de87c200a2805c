#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Make throwaway test credentials in $1: a CA, a server certificate for
# server.test signed by it, a second unrelated CA, and PSK files.
set -e
d=$1
mkdir -p "$d"
cd "$d"
certtool --generate-privkey --key-type ecdsa --outfile ca.key 2>/dev/null
cat > ca.tmpl <<T
cn = libquic test CA
ca
cert_signing_key
expiration_days = 2
T
certtool --generate-self-signed --load-privkey ca.key --template ca.tmpl \
	--outfile ca.pem 2>/dev/null
certtool --generate-privkey --key-type ecdsa --outfile other-ca.key 2>/dev/null
sed 's/libquic test CA/unrelated CA/' ca.tmpl > other-ca.tmpl
certtool --generate-self-signed --load-privkey other-ca.key --template other-ca.tmpl \
	--outfile other-ca.pem 2>/dev/null
certtool --generate-privkey --key-type ecdsa --outfile server.key 2>/dev/null
cat > server.tmpl <<T
cn = server.test
dns_name = server.test
tls_www_server
signing_key
encryption_key
expiration_days = 2
T
certtool --generate-certificate --load-privkey server.key --load-ca-certificate ca.pem \
	--load-ca-privkey ca.key --template server.tmpl --outfile server.pem 2>/dev/null
echo "alice:$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" > psk-alice.txt
echo "mallory:$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" > psk-mallory.txt
