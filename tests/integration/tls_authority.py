"""A certificate authority for tests, made with `cryptography` (which aiortc brings): a loopback HTTPS server gets
a certificate for 127.0.0.1 and localhost, and a client context that trusts the authority checks it for real."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
import tempfile
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


class Authority:
    def __init__(self) -> None:
        self._key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        self._cert = (
            x509.CertificateBuilder().subject_name(_name("avatar-service test CA"))
            .issuer_name(_name("avatar-service test CA"))
            .public_key(self._key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(self._key, hashes.SHA256())
        )
        self.pem = self._cert.public_bytes(serialization.Encoding.PEM)

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts this authority (and nothing else)."""
        return ssl.create_default_context(cadata=self.pem.decode())

    def server_context(self) -> ssl.SSLContext:
        """A server context with a certificate for 127.0.0.1 and localhost, signed by this authority."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder().subject_name(_name("localhost")).issuer_name(self._cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(self._key, hashes.SHA256())
        )
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        with tempfile.TemporaryDirectory() as directory:  # load_cert_chain reads files only
            chain, secret = Path(directory) / "cert.pem", Path(directory) / "key.pem"
            chain.write_bytes(cert.public_bytes(serialization.Encoding.PEM) + self.pem)
            secret.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption()))
            context.load_cert_chain(chain, secret)
        return context
